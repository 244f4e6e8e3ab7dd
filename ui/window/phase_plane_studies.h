// The phase-plane studies the main window opens: one made from the study being edited (its model
// and parameters, the axes and window from the model's XPPAUT plot options), one read from a study
// file, and the view written back as a study file.
#pragma once

#include "engine/study/resolved_study.h"

#include <QString>
#include <memory>

namespace bif::ui {

class PhasePlanePanel;

// The phase plane of `edited`'s model with its parameters and initial values; null with `why`.
std::shared_ptr<const study::ResolvedStudy> phase_plane_of(const study::Study& edited,
                                                           const QString& base_directory, QString& why);
// Whether the file is a study whose analysis is a phase plane.
bool is_phase_plane_file(const QString& path);
// The resolved phase-plane study of a file; null with `why`.
std::shared_ptr<const study::ResolvedStudy> load_phase_plane_file(const QString& path, QString& why);
// The resolved phase-plane study of a view's text as phase_plane_study_text writes it (relative paths
// from `base_directory`; the model's options not applied over it); null with `why` where the text is
// not a study, or not a phase plane's.
std::shared_ptr<const study::ResolvedStudy> phase_plane_of_text(const QString& json,
                                                                const QString& base_directory, QString& why);
// The panel's view as a study file's text (a model path made absolute, so the file opens anywhere).
QString phase_plane_study_text(const PhasePlanePanel& panel);
// Writes the panel's view as a study file (a model path made absolute, so the file opens anywhere).
bool save_phase_plane_study(const PhasePlanePanel& panel, const QString& path, QString& why);

} // namespace bif::ui
