// The files behind the window: the model (`.ode`) in the editor and the study file the study panel
// mirrors. New / Open / Save / Save As for models, Open / Save for studies (the panel and the file
// are the same thing), recent files, and the question before unsaved edits would be lost. The study
// file also keeps the continuation branches drawn over the study's result (ui/plot/saved_overlays.h):
// they are the document's, read when it opens and written when it is saved, and a change to them
// marks the document modified as an edit of the model does. So does an edit of the study panel (or
// ranges a zoom writes into it) until the panel's study is again the one read or saved last.
#pragma once

#include "engine/study/study.h"
#include "ui/plot/branch_overlay.h"
#include "ui/window/document_state.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>

class QWidget;

namespace bif::model {
struct Model;
}

namespace bif::ui {

class ModelEditorPanel;
class PhasePlaneDocuments;
class StudyPanel;

class DocumentController : public QObject {
    Q_OBJECT
  public:
    DocumentController(ModelEditorPanel& editor, StudyPanel& study, QWidget& dialog_parent,
                       QObject* parent = nullptr);

    const DocumentState& state() const { return state_; }

    // Each returns false when the user cancelled or the file could not be read/written (a message box
    // said why).
    bool newModel();
    bool open(const QString& path); // a model or a study file, told apart by content
    bool openModel(const QString& path);
    bool openStudy(const QString& path);
    // A model without a file (a continuation study's inline model) in the editor, as a new model.
    bool showModelText(const QString& text);
    bool save();
    bool saveAs();
    bool saveStudyAs();
    bool saveStudy(const QString& path);
    // Before the model is replaced or the window closes: Save / Discard / Cancel when the model, the
    // study or the branches have unsaved changes. Save writes what changed: the model, then the study
    // file (the study and the branches are one file).
    bool maybeSave();
    // Before the window closes: as maybeSave, and the phase-plane tabs' views too (one question names
    // all that is unsaved; its Save writes each).
    bool maybeSaveBeforeClosing();
    // The phase-plane tabs' study files, whose changes mark the window modified and are asked about
    // before it closes.
    void setPhasePlanes(PhasePlaneDocuments* planes);

    // The study as it is to be run or saved: the panel's settings with the editor's text as the model.
    study::Study studyForRun() const;
    // The study as a file at `study_path` writes it: the model by path (relative to the study's folder)
    // when the editor's model is a saved file, else inline.
    study::Study studyForFile(const QString& study_path) const;
    // The study file's text for `study`, with the document's branches.
    QString documentJson(const study::Study& study) const;

    // The branches drawn over the document's result: read from its study file, then following the
    // result's tab (added, removed, undone) through setBranches. They are modified while they are not
    // the list read or saved last (an undo back to it gives that very list again: the tab's history
    // keeps each list whole), or where both are empty.
    std::shared_ptr<const plot::Overlays> branches() const { return branches_; }
    void setBranches(std::shared_ptr<const plot::Overlays> branches);
    // The last study opened with its model parsed, for `--run`; empty when none.
    // `study_json` may hold branches (documentJson's text).
    void restore(const QString& model_text, const QString& model_path, const QString& study_json,
                 const QString& study_path);

  signals:
    void stateChanged();                // paths or the modified flag changed: retitle the window
    void fileUsed(const QString& path); // opened or saved: for the recent-files list
    void message(const QString& text, bool is_error);
    void note(const QString& text); // for the messages panel, not a problem
    // Another document's branches (none for a new model) replaced the ones before.
    void branchesReplaced();

  private:
    bool writeModel(const QString& path);
    bool applyStudy(const study::Study& study, const QString& study_path);
    void setModelText(const QString& text, const QString& path);
    // The branches of a study file's text (`source` names it in messages).
    void loadBranches(const QString& json_text, const QString& source);
    void clearBranches();
    // The branches on show are the study file's; the stateChanged that follows retitles the window.
    void takeBranchesAsSaved();
    bool branchesDifferFromSaved() const;
    // The panel's study as text without its model (the model's changes are the editor's to tell).
    QString studyText() const;
    // The panel's study is the study file's: what a later edit is compared with.
    void takeStudyAsSaved();
    void updateStudyModified();
    // maybeSave's question, naming what is unsaved, and its Save.
    QString unsavedChangesText(bool with_phase_planes) const;
    bool saveModified();
    bool askToSave(bool with_phase_planes);

    ModelEditorPanel& editor_;
    StudyPanel& study_;
    QWidget& dialog_parent_;
    DocumentState state_;
    std::shared_ptr<const plot::Overlays> branches_ = std::make_shared<const plot::Overlays>();
    std::shared_ptr<const plot::Overlays> saved_branches_ = branches_;
    QString saved_study_; // studyText() when the study was last read or saved
    PhasePlaneDocuments* planes_ = nullptr;
};

} // namespace bif::ui
