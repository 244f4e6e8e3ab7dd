#include "ui/window/phase_plane_studies.h"

#include "engine/analysis/phase_plane_defaults.h"
#include "engine/study/study_json.h"
#include "ui/phase/phase_plane_panel.h"
#include "ui/plot/save_output.h"

#include <QDir>
#include <QFileInfo>

namespace bif::ui {

namespace {

QString first_error(const study::Problems& problems) {
    for (const auto& p : problems)
        if (p.severity == study::ProblemSeverity::Error) return QString::fromStdString(p.format());
    return QObject::tr("the study cannot be resolved");
}

} // namespace

std::shared_ptr<const study::ResolvedStudy> phase_plane_of(const study::Study& edited,
                                                           const QString& base_directory, QString& why) {
    study::Study s = edited;
    s.sweep.clear();
    s.gpus.clear();
    s.given.reset();
    if (s.analysis != study::AnalysisKind::PhasePlane) {
        s.analysis = study::AnalysisKind::PhasePlane;
        s.title.clear();
        s.phase_plane = {};
    }
    auto first = study::resolve_study(s, base_directory.toStdString());
    if (!first.resolved) return why = first_error(first.problems), nullptr;
    if (edited.analysis == study::AnalysisKind::PhasePlane) return first.resolved;
    s.phase_plane = analysis::phase_plane_defaults(*first.resolved->model);
    auto second = study::resolve_study(s, base_directory.toStdString());
    if (!second.resolved) return why = first_error(second.problems), nullptr;
    return second.resolved;
}

bool is_phase_plane_file(const QString& path) {
    if (!path.endsWith(".json", Qt::CaseInsensitive)) return false;
    const auto read = study::read_study_file(path.toStdString());
    return read.study && read.study->analysis == study::AnalysisKind::PhasePlane;
}

std::shared_ptr<const study::ResolvedStudy> load_phase_plane_file(const QString& path, QString& why) {
    auto loaded = study::load_study_file(path.toStdString());
    if (!loaded.resolved) return why = first_error(loaded.problems), nullptr;
    return loaded.resolved;
}

std::shared_ptr<const study::ResolvedStudy> phase_plane_of_text(const QString& json,
                                                                const QString& base_directory, QString& why) {
    const auto read = study::read_study_json(json.toStdString());
    if (!read.study) return why = first_error(read.problems), nullptr;
    if (read.study->analysis != study::AnalysisKind::PhasePlane)
        return why = QObject::tr("the study is not a phase plane"), nullptr;
    // The text is a whole view as phase_plane_study_text wrote it: what it leaves out was not set (a
    // view made from the edited study takes none of the model's options), so none is filled in again.
    study::Study s = std::move(*read.study);
    s.given.reset();
    auto resolved = study::resolve_study(s, base_directory.toStdString());
    if (!resolved.resolved) return why = first_error(resolved.problems), nullptr;
    return resolved.resolved;
}

QString phase_plane_study_text(const PhasePlanePanel& panel) {
    study::Study s = panel.study();
    if (!s.model.path.empty() && QFileInfo(QString::fromStdString(s.model.path)).isRelative()) {
        // resolved studies keep the folder their relative paths start from
        const QString base = QString::fromStdString(panel.baseDirectory());
        s.model.path = QDir(base).absoluteFilePath(QString::fromStdString(s.model.path)).toStdString();
    }
    return QString::fromStdString(study::write_study_json(s));
}

bool save_phase_plane_study(const PhasePlanePanel& panel, const QString& path, QString& why) {
    why = plot::save_output(path, phase_plane_study_text(panel).toUtf8());
    return why.isEmpty();
}

} // namespace bif::ui
