// Where the open model and study live on disk, and whether the model has unsaved edits: the state
// that titles the window, fills the recovery snapshot and decides what Save does.
#pragma once

#include <QString>

namespace bif::ui {

struct DocumentState {
    QString model_path; // empty: untitled
    QString study_path; // the study file last opened or saved; empty: none
    bool model_modified = false;

    QString model_display_name() const;
    // The folder that relative model paths in a study start from.
    QString base_directory() const;
};

} // namespace bif::ui
