// Where the open model and study live on disk, and whether the model, the study's settings, the
// branches drawn over the study's result or a phase-plane tab's view have unsaved changes: the state that
// titles the window, fills the recovery snapshot, decides what Save does and whether closing asks first.
#pragma once

#include <QString>

namespace bif::ui {

struct DocumentState {
    QString model_path; // empty: untitled
    QString study_path; // the study file last opened or saved; empty: none
    bool model_modified = false;
    // The branches differ from the study file's (added, removed, or recovered and not saved yet).
    bool branches_modified = false;
    // The study panel's settings differ from those last read or saved (an edit, a zoom's ranges).
    bool study_modified = false;
    // A phase-plane tab's view differs from its own study file (ui/window/phase_plane_documents.h).
    bool phase_plane_modified = false;

    bool modified() const { return document_modified() || phase_plane_modified; }
    // The model, the study or its branches: what the question before another model replaces them
    // covers (the phase-plane tabs stay open then; the recovery snapshot keeps them too).
    bool document_modified() const { return model_modified || study_modified || branches_modified; }

    QString model_display_name() const;
    // The folder that relative model paths in a study start from.
    QString base_directory() const;
};

} // namespace bif::ui
