#include "ui/plot/saved_overlays.h"

namespace bif::plot {

namespace {

cont::SavedBranchKind saved_kind(OverlayKind kind) {
    switch (kind) {
    case OverlayKind::Branch:
        return cont::SavedBranchKind::Branch;
    case OverlayKind::Curve:
        return cont::SavedBranchKind::Curve;
    case OverlayKind::Points:
        return cont::SavedBranchKind::Points;
    }
    return cont::SavedBranchKind::Branch;
}

OverlayKind overlay_kind(cont::SavedBranchKind kind) {
    switch (kind) {
    case cont::SavedBranchKind::Branch:
        return OverlayKind::Branch;
    case cont::SavedBranchKind::Curve:
        return OverlayKind::Curve;
    case cont::SavedBranchKind::Points:
        return OverlayKind::Points;
    }
    return OverlayKind::Branch;
}

} // namespace

cont::SavedBranch saved_branch_of(const BranchOverlay& o) {
    cont::SavedBranch b;
    b.name = o.name.toStdString();
    b.kind = saved_kind(o.kind);
    b.parameter = o.parameter.toStdString();
    b.second_parameter = o.second_parameter.toStdString();
    for (const QString& s : o.states)
        b.states.push_back(s.toStdString());
    b.points.reserve(o.points.size());
    for (const OverlayPoint& p : o.points)
        b.points.push_back(
            {p.parameter, p.second, p.state, p.stable, p.label.toStdString(), p.details.toStdString()});
    if (o.seed) b.seed = *o.seed;
    return b;
}

BranchOverlay overlay_of(const cont::SavedBranch& b) {
    BranchOverlay o;
    o.name = QString::fromStdString(b.name);
    o.kind = overlay_kind(b.kind);
    o.parameter = QString::fromStdString(b.parameter);
    o.second_parameter = QString::fromStdString(b.second_parameter);
    for (const std::string& s : b.states)
        o.states << QString::fromStdString(s);
    o.points.reserve(b.points.size());
    for (const cont::SavedBranchPoint& p : b.points) {
        OverlayPoint q;
        q.parameter = p.parameter;
        q.second = p.second;
        q.state = p.state;
        q.stable = p.stable;
        q.label = QString::fromStdString(p.label);
        q.details = QString::fromStdString(p.details);
        o.points.push_back(std::move(q));
    }
    if (b.seed) o.seed = std::make_shared<const study::EquilibriumStudy>(*b.seed);
    return o;
}

QString document_json_with(const std::string& study_json, const Overlays& overlays) {
    std::vector<cont::SavedBranch> saved;
    saved.reserve(overlays.size());
    for (const BranchOverlay& o : overlays)
        saved.push_back(saved_branch_of(o));
    return QString::fromStdString(cont::with_saved_branches(study_json, saved));
}

DocumentOverlays overlays_of_document(const QString& document_json) {
    DocumentOverlays out;
    const cont::SavedBranchesReadResult read = cont::read_saved_branches(document_json.toStdString());
    for (const cont::SavedBranch& b : read.branches)
        out.overlays.push_back(overlay_of(b));
    for (const study::Problem& p : read.problems)
        (p.severity == study::ProblemSeverity::Error ? out.errors : out.warnings)
            << QString::fromStdString(p.path + ": " + p.message);
    return out;
}

} // namespace bif::plot
