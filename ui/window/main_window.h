// The Bifscope main window: it only assembles the panels (model editor, study panel, plot area,
// trajectory inspector, messages, status bar), builds the menus and connects them. The work lives in
// the panels and in three controllers: DocumentController (files), RunController (runs), PlotArea
// (result tabs and their export).
#pragma once

#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <memory>

namespace bif::study {
struct ResolvedEquilibriumStudy;
struct ResolvedStudy;
struct Study;
} // namespace bif::study

namespace bif::ui {

class ContinuationController;
class DocumentController;
class HelpBrowser;
class MessagesPanel;
class ModelEditorPanel;
class PhasePlaneDocuments;
class PhasePlanePanel;
class PlotArea;
class RecentFiles;
class RecoveryStore;
struct RecoveredPhasePlane;
struct RecoverySnapshot;
class ResultTab;
class RunController;
class StatusPanel;
class StudyPanel;
class StudyRunner;
class TiledZoom;
class TrajectoryInspector;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a model or study file (the command line's argument); false when it could not be opened.
    bool openFile(const QString& path);
    // Runs the study in the panel into a new tab (Ctrl+R); false when the study has errors.
    bool runStudy();
    // Opens the phase plane of the edited model with the study's parameters as a tab (View > Phase
    // plane); null when the model has none (the messages say why).
    PhasePlanePanel* showPhasePlane();
    // Runs the continuation study file and draws its branches or curves over the tab's picture; false
    // (the messages say why) when the file is not a continuation study.
    bool overlayStudy(ResultTab* tab, const QString& path);
    // Offers back what a killed session left unsaved (called once the window is shown).
    void offerRecovery();
    // Brings back a snapshot's model, study and phase-plane tabs (each marked modified where it
    // differs from its file); a phase plane that cannot be restored is named in the messages.
    void restoreRecovery(const RecoverySnapshot& snapshot);

    // The panels, for tests that drive the real widgets.
    ModelEditorPanel& editorPanel() { return *editor_; }
    StudyPanel& studyPanel() { return *study_; }
    PlotArea& plotArea() { return *plots_; }
    StatusPanel& statusPanel() { return *status_; }
    MessagesPanel& messagesPanel() { return *messages_; }
    TrajectoryInspector& inspector() { return *inspector_; }
    DocumentController& documents() { return *documents_; }
    PhasePlaneDocuments& phasePlanes() { return *phase_planes_; }
    RunController& runs() { return *runs_; }
    TiledZoom& tiles() { return *tiles_; }
    ContinuationController& continuations() { return *continuations_; }
    RecoveryStore& recovery() { return *recovery_; }

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildDocks();
    void buildMenus();
    void connectPanels();
    void retitle();
    void showHelp(const QString& page);
    void openExamples();
    void updateRunAction();
    void showSweepInPanel(const study::Study& shown);
    void exportPicture(bool svg);
    void exportCsv();
    void savePhasePlaneStudy(PhasePlanePanel& panel);
    bool openContinuationStudy(const QString& path);
    // An equilibrium or continuation study read and resolved, its problems in the messages panel; null
    // where it has errors.
    std::shared_ptr<const study::ResolvedEquilibriumStudy> loadContinuationStudy(const QString& path);
    QList<RecoveredPhasePlane> phasePlaneSnapshots() const;
    // False with `why` where the entry's view cannot be shown.
    bool restorePhasePlane(const RecoveredPhasePlane& plane, QString& why);

    StudyRunner* runner_;
    ModelEditorPanel* editor_;
    StudyPanel* study_;
    PlotArea* plots_;
    TrajectoryInspector* inspector_;
    MessagesPanel* messages_;
    StatusPanel* status_;
    DocumentController* documents_;
    PhasePlaneDocuments* phase_planes_;
    RunController* runs_;
    TiledZoom* tiles_;
    ContinuationController* continuations_;
    RecentFiles* recent_;
    RecoveryStore* recovery_;
    HelpBrowser* help_ = nullptr;
    // The newest result of the document's study: its branches are the document's.
    QPointer<ResultTab> document_tab_;
    class QAction* run_action_ = nullptr;
};

} // namespace bif::ui
