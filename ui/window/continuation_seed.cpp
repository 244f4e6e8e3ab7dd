#include "ui/window/continuation_seed.h"

#include <QObject>
#include <algorithm>
#include <cmath>

namespace bif::ui {

namespace {

std::optional<std::size_t> column_of(const study::PointBlock& points, const std::string& name) {
    const auto it = std::find(points.columns.begin(), points.columns.end(), name);
    if (it == points.columns.end()) return std::nullopt;
    return std::size_t(it - points.columns.begin());
}

// The recorded row of `system` whose `column` is nearest y.
std::size_t nearest_row(const study::Result& r, std::size_t system, std::size_t column, double y) {
    std::size_t best = 0;
    double gap = INFINITY;
    for (std::size_t row = 0; row < r.points.rows_filled[system]; ++row) {
        const double d = std::abs(r.points.value(system, row, column) - y);
        if (d < gap) gap = d, best = row;
    }
    return best;
}

} // namespace

std::optional<study::EquilibriumStudy> continuation_from_branch(const plot::BranchOverlay& branch,
                                                                QString& why) {
    using study::EquilibriumAnalysis;
    if (!branch.seed) return why = QObject::tr("the branch was saved without its study"), std::nullopt;
    if (branch.kind != plot::OverlayKind::Branch || branch.points.empty())
        return why = QObject::tr("only a branch in one parameter continues"), std::nullopt;
    study::EquilibriumStudy s = *branch.seed;
    if (s.analysis != EquilibriumAnalysis::Continuation &&
        s.analysis != EquilibriumAnalysis::OrbitContinuation)
        return why = QObject::tr("its study is no continuation of one branch"), std::nullopt;
    const plot::OverlayPoint& last = branch.points.back();
    if (last.state.size() != std::size_t(branch.states.size()))
        return why = QObject::tr("its last point has no whole state"), std::nullopt;
    s.start.clear();
    for (qsizetype i = 0; i < branch.states.size(); ++i)
        s.start.emplace_back(branch.states[i].toStdString(), last.state[std::size_t(i)]);
    // The continuation starts at the parameter's value: the last point's.
    bool found = false;
    for (auto& [name, value] : s.parameters)
        if (name == s.parameter) value = last.parameter, found = true;
    if (!found) s.parameters.emplace_back(s.parameter, last.parameter);
    // Its range still holds the start (a branch may have ended just past it).
    s.from = std::min(s.from, last.parameter);
    s.to = std::max(s.to, last.parameter);
    // The orbit is already there: settling onto it again is not needed.
    s.orbit.transient_periods = 0;
    return s;
}

int detected_period(const study::Result& r, std::size_t system, std::size_t column) {
    if (system >= r.points.rows_filled.size()) return 0;
    std::vector<double> values;
    for (std::size_t row = 0; row < r.points.rows_filled[system]; ++row)
        if (const double v = r.points.value(system, row, column); std::isfinite(v)) values.push_back(v);
    std::sort(values.begin(), values.end());
    int distinct = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
        if (i == 0 || values[i] - values[i - 1] > same_section_point * std::max(1.0, std::abs(values[i])))
            ++distinct;
    return distinct;
}

std::optional<study::EquilibriumStudy> continuation_from_diagram(const study::ResolvedStudy& d,
                                                                 const study::Result& r, std::size_t system,
                                                                 const QString& quantity, double y,
                                                                 QString& why) {
    const study::Study& s = d.study;
    if (s.analysis != study::AnalysisKind::Bifurcation || s.sweep.empty())
        return why = QObject::tr("continuation starts from a bifurcation diagram's point"), std::nullopt;
    if (s.sweep[0].target != study::SweepTarget::Parameter)
        return why = QObject::tr("the diagram sweeps an initial value, not a parameter"), std::nullopt;
    if (!d.model->is_map() && s.bifurcation.section.kind != study::SectionKind::Stroboscopic)
        return why = QObject::tr("an event section has no fixed period to continue; continuation from a "
                                 "diagram needs a map or a stroboscopic section"),
               std::nullopt;
    if (r.kept_points || system >= r.points.rows_filled.size())
        return why = QObject::tr("the diagram's points are not on the host"), std::nullopt;
    const auto column = column_of(r.points, quantity.toStdString());
    if (!column) return why = QObject::tr("the diagram records no %1").arg(quantity), std::nullopt;
    const int k = detected_period(r, system, *column);
    if (k == 0) return why = QObject::tr("the system recorded no section point"), std::nullopt;
    if (k > max_continued_period)
        return why = QObject::tr("%1 distinct section points: no periodic orbit to continue (chaos or a "
                                 "quasi-periodic orbit)")
                         .arg(k),
               std::nullopt;

    std::vector<double> parameters(d.model->num_parameters()), initial(d.model->num_states());
    d.system_values(system, parameters.data(), initial.data());
    study::EquilibriumStudy e;
    e.title = QObject::tr("%1 from %2 = %3")
                  .arg(QString::fromStdString(s.title.empty() ? "orbit" : s.title),
                       QString::fromStdString(s.sweep[0].name))
                  .arg(parameters[std::size_t(d.model->parameter_index(s.sweep[0].name))])
                  .toStdString();
    e.model = s.model;
    for (std::size_t i = 0; i < parameters.size(); ++i)
        e.parameters.emplace_back(d.model->parameters[i].name, parameters[i]);
    e.analysis = study::EquilibriumAnalysis::OrbitContinuation;
    e.parameter = s.sweep[0].name;
    e.from = std::min(s.sweep[0].from, s.sweep[0].to);
    e.to = std::max(s.sweep[0].from, s.sweep[0].to);
    e.direction = study::ContinuationDirection::Both;
    e.step = (e.to - e.from) / 200;
    e.max_step = (e.to - e.from) / 40;
    e.min_step = (e.to - e.from) * 1e-9;
    e.max_points = 400;
    e.orbit.kind = d.model->is_map() ? study::OrbitKind::Map : study::OrbitKind::Stroboscopic;
    e.orbit.k = k;
    e.orbit.forcing_period = s.bifurcation.section.period;
    e.orbit.segments = 2;
    e.orbit.rtol = 1e-9;
    e.orbit.atol = 1e-9;
    // Every state recorded: the clicked section point itself starts Newton. Else the system's own
    // start, settled onto its attractor as the diagram did.
    bool all_recorded = true;
    std::vector<double> start = initial;
    const std::size_t row = nearest_row(r, system, *column, y);
    for (std::size_t i = 0; i < d.model->num_states(); ++i) {
        const auto c = column_of(r.points, d.model->states[i].name);
        if (!c) {
            all_recorded = false;
            break;
        }
        start[i] = r.points.value(system, row, *c);
    }
    if (!all_recorded) start = initial;
    e.orbit.transient_periods = all_recorded ? 0 : std::max(1, s.bifurcation.transient_sections / k);
    for (std::size_t i = 0; i < start.size(); ++i)
        e.start.emplace_back(d.model->states[i].name, start[i]);
    return e;
}

} // namespace bif::ui
