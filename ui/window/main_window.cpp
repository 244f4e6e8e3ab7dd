#include "ui/window/main_window.h"

#include "engine/study/equilibrium_study.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"
#include "ui/charts/trajectory_inspector.h"
#include "ui/editor/model_editor.h"
#include "ui/editor/model_editor_panel.h"
#include "ui/editor/problems_panel.h"
#include "ui/phase/phase_plane_panel.h"
#include "ui/plot/figure_title.h"
#include "ui/plot/save_output.h"
#include "ui/run/study_runner.h"
#include "ui/shell/examples_gallery.h"
#include "ui/shell/help_browser.h"
#include "ui/shell/recent_files.h"
#include "ui/shell/recovery_dialog.h"
#include "ui/shell/recovery_store.h"
#include "ui/shell/resources_dir.h"
#include "ui/shell/window_settings.h"
#include "ui/study/study_panel.h"
#include "ui/window/branch_tab.h"
#include "ui/window/continuation_controller.h"
#include "ui/window/document_controller.h"
#include "ui/window/export_dialog.h"
#include "ui/window/messages_panel.h"
#include "ui/window/phase_plane_documents.h"
#include "ui/window/phase_plane_studies.h"
#include "ui/window/plot_area.h"
#include "ui/window/result_tab.h"
#include "ui/window/run_controller.h"
#include "ui/window/status_panel.h"
#include "ui/window/tiled_zoom.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTextDocument>
#include <QToolBar>
#include <cmath>

namespace bif::ui {

namespace {

QDockWidget* dock(QMainWindow* window, const QString& title, const QString& name, QWidget* content,
                  Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, window);
    d->setObjectName(name); // saveState() needs it
    d->setWidget(content);
    window->addDockWidget(area, d);
    return d;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), runner_(new StudyRunner(this)), editor_(new ModelEditorPanel(this)),
      study_(new StudyPanel(this)), plots_(new PlotArea(this)), inspector_(new TrajectoryInspector(this)),
      messages_(new MessagesPanel(this)), status_(new StatusPanel(this)),
      documents_(new DocumentController(*editor_, *study_, *this, this)),
      phase_planes_(new PhasePlaneDocuments(*this, this)),
      runs_(new RunController(*runner_, *status_, *messages_, this)), tiles_(new TiledZoom(*runner_, this)),
      continuations_(new ContinuationController(*status_, *messages_, this)),
      recent_(new RecentFiles("recent_files", this)),
      recovery_(new RecoveryStore(RecoveryStore::defaultDirectory(), this)) {
    setCentralWidget(plots_);
    statusBar()->addPermanentWidget(status_, 1);
    resize(1440, 920); // before the docks are sized; a saved geometry replaces it
    buildDocks();
    buildMenus();
    documents_->setPhasePlanes(phase_planes_);
    connectPanels();
    WindowSettings().restore(*this);
    documents_->newModel();
    retitle();
    runs_->probeBackend();
    recovery_->setSnapshotFunction([this] {
        RecoverySnapshot s;
        s.model_text = editor_->text();
        s.model_path = documents_->state().model_path;
        s.study_path = documents_->state().study_path;
        s.study_json = documents_->documentJson(documents_->studyForRun());
        s.phase_planes = phasePlaneSnapshots();
        return s;
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
    // The study form scrolls down, never sideways: its dock is as wide as the form needs.
    auto* study_scroll = new QScrollArea(this);
    study_scroll->setWidget(study_);
    study_scroll->setWidgetResizable(true);
    study_scroll->setFrameShape(QFrame::NoFrame);
    study_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    const int study_width =
        study_->minimumSizeHint().width() + study_scroll->verticalScrollBar()->sizeHint().width();
    study_scroll->setMinimumWidth(study_width);
    auto* model_dock = dock(this, tr("Model"), "model", editor_, Qt::LeftDockWidgetArea);
    auto* study_dock = dock(this, tr("Study"), "study", study_scroll, Qt::RightDockWidgetArea);
    auto* inspector_dock = dock(this, tr("Trajectory"), "trajectory", inspector_, Qt::BottomDockWidgetArea);
    auto* messages_dock = dock(this, tr("Messages"), "messages", messages_, Qt::BottomDockWidgetArea);
    tabifyDockWidget(inspector_dock, messages_dock);
    // The picture gets the room: the editor as wide as a model line, a few lines of messages, and
    // the trajectory inspector only once a point is clicked (it has nothing to show before).
    inspector_dock->hide();
    messages_dock->raise();
    const int line = fontMetrics().lineSpacing();
    // About 38 columns of the editor's font and its line numbers: a typical model line.
    const int column = editor_->editor()->fontMetrics().horizontalAdvance(QChar('m'));
    const int model_width = 38 * column + 48;
    resizeDocks({model_dock, study_dock}, {model_width, study_width}, Qt::Horizontal);
    resizeDocks({messages_dock}, {5 * line}, Qt::Vertical);
    connect(plots_, &PlotArea::systemClicked, this, [this, inspector_dock] {
        inspector_dock->show();
        inspector_dock->raise();
        // The charts need height to be read: grow the dock once, the user's own size wins after that.
        if (inspector_dock->height() < 320) resizeDocks({inspector_dock}, {320}, Qt::Vertical);
    });
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&New model"), QKeySequence::New, this, [this] { documents_->newModel(); });
    file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open a model or a study"), QFileInfo(documents_->state().base_directory()).filePath(),
            tr("Models and studies (*.ode *.json);;All files (*)"));
        if (!path.isEmpty()) documents_->open(path);
    });
    file->addAction(tr("Open &example…"), this, &MainWindow::openExamples);
    file->addMenu(recent_->menu());
    file->addSeparator();
    file->addAction(tr("&Save model"), QKeySequence::Save, this, [this] { documents_->save(); });
    file->addAction(tr("Save model &as…"), QKeySequence::SaveAs, this, [this] { documents_->saveAs(); });
    file->addAction(tr("Save s&tudy…"), QKeySequence(tr("Ctrl+Alt+S")), this, [this] {
        if (auto* plane = plots_->currentPhasePlane()) return savePhasePlaneStudy(*plane);
        documents_->saveStudyAs();
    });
    file->addSeparator();
    file->addAction(tr("Export picture (&PNG)…"), QKeySequence(tr("Ctrl+E")), this,
                    [this] { exportPicture(false); });
    file->addAction(tr("Export picture (S&VG)…"), this, [this] { exportPicture(true); });
    file->addAction(tr("Export &data (CSV)…"), this, [this] { exportCsv(); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = edit->addAction(tr("&Undo"), QKeySequence::Undo, editor_->editor(),
                                    [this] { editor_->editor()->undo(); });
    QAction* redo = edit->addAction(tr("&Redo"), QKeySequence::Redo, editor_->editor(),
                                    [this] { editor_->editor()->redo(); });
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(editor_->document(), &QTextDocument::undoAvailable, undo, &QAction::setEnabled);
    connect(editor_->document(), &QTextDocument::redoAvailable, redo, &QAction::setEnabled);
    edit->addSeparator();
    edit->addAction(tr("Cu&t"), QKeySequence::Cut, editor_->editor(), [this] { editor_->editor()->cut(); });
    edit->addAction(tr("&Copy"), QKeySequence::Copy, editor_->editor(),
                    [this] { editor_->editor()->copy(); });
    edit->addAction(tr("&Paste"), QKeySequence::Paste, editor_->editor(),
                    [this] { editor_->editor()->paste(); });

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run_action_ = run->addAction(tr("&Run study"), this, [this] { runStudy(); });
    run_action_->setShortcuts({QKeySequence(tr("Ctrl+R")), QKeySequence(Qt::Key_F5)});
    QAction* cancel =
        run->addAction(tr("&Cancel run"), QKeySequence(Qt::Key_Escape), runs_, &RunController::cancel);
    cancel->setShortcutContext(Qt::WindowShortcut);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* back = view->addAction(tr("Zoom &back"), QKeySequence(tr("Alt+Left")), this, [this] {
        if (auto* tab = plots_->currentTab()) tab->back();
    });
    QAction* forward = view->addAction(tr("Zoom &forward"), QKeySequence(tr("Alt+Right")), this, [this] {
        if (auto* tab = plots_->currentTab()) tab->forward();
    });
    QAction* reset = view->addAction(tr("&Reset zoom"), QKeySequence(Qt::Key_Home), this, [this] {
        if (auto* tab = plots_->currentTab()) tab->resetView();
    });
    view->addSeparator();
    view->addAction(tr("&Phase plane"), QKeySequence(tr("Ctrl+Shift+P")), this, [this] { showPhasePlane(); });
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Tutorial"), QKeySequence::HelpContents, this, [this] { showHelp("tutorial.md"); });
    help->addAction(tr("&Language reference"), this, [this] { showHelp("LANGUAGE.md"); });
    help->addAction(tr("&Keyboard shortcuts"), this, [this] { showHelp("shortcuts.md"); });
    help->addSeparator();
    help->addAction(tr("&About Bifscope"), this, [this] {
        QMessageBox::about(
            this, tr("About Bifscope"),
            tr("<h3>Bifscope %1</h3><p>A bifurcation explorer: XPPAUT models, integrated as "
               "ensembles of up to hundreds of millions of systems on the GPU or every CPU core.</p>")
                .arg(QApplication::applicationVersion()));
    });

    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName("main-toolbar");
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    run_action_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    cancel->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    back->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    forward->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    reset->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
    tools->addAction(run_action_);
    tools->addAction(cancel);
    tools->addSeparator();
    tools->addAction(back);
    tools->addAction(forward);
    tools->addAction(reset);
}

void MainWindow::connectPanels() {
    connect(editor_, &ModelEditorPanel::modelChecked, this,
            [this](std::shared_ptr<const model::Model> model, const std::vector<model::Diagnostic>&) {
                if (!model) return;
                study::ModelSource source;
                source.text = editor_->text().toStdString();
                study_->setModel(std::move(model), source, documents_->state().base_directory());
            });
    // Every check, not only changes of validity (the model's errors may have changed in between), and
    // the validity itself, which the panel updates after announcing the check.
    connect(study_, &StudyPanel::studyChecked, this, &MainWindow::updateRunAction);
    connect(study_, &StudyPanel::validityChanged, this, &MainWindow::updateRunAction);
    connect(editor_, &ModelEditorPanel::problemCountChanged, this, &MainWindow::updateRunAction);
    connect(documents_, &DocumentController::stateChanged, this, [this] {
        retitle();
        // Opened, saved or new (or undone back to that), phase planes too: nothing to recover until
        // the next change.
        if (!documents_->state().modified()) recovery_->markClean();
    });
    connect(documents_, &DocumentController::fileUsed, recent_, &RecentFiles::add);
    connect(phase_planes_, &PhasePlaneDocuments::fileUsed, recent_, &RecentFiles::add);
    plots_->setCloseCheck([this](QWidget* page) {
        auto* plane = qobject_cast<PhasePlanePanel*>(page);
        if (!plane) return true;
        if (!phase_planes_->maybeSave(*plane)) return false;
        phase_planes_->forget(plane); // gone now for the title, not only once deleted
        return true;
    });
    connect(documents_, &DocumentController::note, this,
            [this](const QString& text) { messages_->add(MessagesPanel::Level::Info, text); });
    // The tab that showed the document's branches shows another document's no longer.
    connect(documents_, &DocumentController::branchesReplaced, this, [this] { document_tab_ = nullptr; });
    connect(documents_, &DocumentController::message, this, [this](const QString& text, bool error) {
        messages_->add(error ? MessagesPanel::Level::Error : MessagesPanel::Level::Warning, text);
    });
    connect(recent_, &RecentFiles::fileChosen, this, [this](const QString& path) { openFile(path); });
    connect(plots_, &PlotArea::zoomRequested, this, [this](ResultTab* tab, const study::Study& zoomed) {
        if (TiledZoom::handles(*tab)) {
            runs_->abandon(tab); // a whole-view run into this tab would fight the tiles
            tiles_->show(tab, zoomed);
            showSweepInPanel(zoomed);
            return;
        }
        const auto resolved = study::resolve_study(zoomed, tab->study()->base_directory);
        if (!resolved.resolved) {
            messages_->add(MessagesPanel::Level::Error,
                           tr("The zoomed study is not valid: %1")
                               .arg(QString::fromStdString(resolved.problems.front().format())));
            return;
        }
        runs_->run(tab, resolved.resolved);
        showSweepInPanel(zoomed);
    });
    connect(plots_, &PlotArea::tabRestored, runs_, &RunController::abandon);
    connect(plots_, &PlotArea::tabRestored, tiles_, &TiledZoom::abandon);
    connect(plots_, &PlotArea::renderPathChanged, status_, &StatusPanel::setDrawing);
    connect(tiles_, &TiledZoom::phase, status_, &StatusPanel::setTiles);
    connect(status_, &StatusPanel::cancelRequested, tiles_, &TiledZoom::cancel);
    connect(plots_, &PlotArea::tabRestored, this,
            [this](ResultTab* tab) { showSweepInPanel(tab->study()->study); });
    connect(plots_, &PlotArea::systemClicked, inspector_, &TrajectoryInspector::inspect);
    connect(plots_, &PlotArea::hoverText, this,
            [this](const QString& text) { statusBar()->showMessage(text, 4000); });
    connect(plots_, &PlotArea::openExampleRequested, this, &MainWindow::openExamples);
    connect(plots_, &PlotArea::continueRequested, continuations_, &ContinuationController::continueFrom);
    connect(plots_, &PlotArea::continueBranchRequested, continuations_,
            qOverload<ResultTab*, std::size_t>(&ContinuationController::continueBranch));
    connect(plots_, &PlotArea::continueBranchTabRequested, continuations_,
            qOverload<BranchTab*, std::size_t>(&ContinuationController::continueBranch));
    connect(inspector_, &TrajectoryInspector::continueRequested, this,
            [this](std::shared_ptr<const study::ResolvedStudy> study, std::size_t system) {
                // The diagram it came from (the tab on show, or any with that study) holds its points.
                ResultTab* tab = plots_->tabShowing(study);
                if (!tab)
                    return messages_->add(MessagesPanel::Level::Warning,
                                          tr("No continuation: the inspected system's diagram is closed"));
                continuations_->continueFrom(tab, system, QPointF(0, std::nan("")));
            });
    connect(plots_, &PlotArea::overlayStudyRequested, this, [this](ResultTab* tab) {
        const QString path = QFileDialog::getOpenFileName(this, tr("Overlay a continuation study"),
                                                          documents_->state().base_directory(),
                                                          tr("Continuation studies (*.json);;All files (*)"));
        if (!path.isEmpty()) overlayStudy(tab, path);
    });
    connect(plots_, &PlotArea::message, this, [this](const QString& text, bool error) {
        messages_->add(error ? MessagesPanel::Level::Error : MessagesPanel::Level::Info, text);
    });
}

void MainWindow::openExamples() {
    ExamplesGallery gallery(resources_dir(), this);
    connect(&gallery, &ExamplesGallery::exampleChosen, this, [this](const QString& path) { openFile(path); });
    gallery.exec();
}

void MainWindow::showSweepInPanel(const study::Study& shown) {
    // The panel is the study file: after a zoom it holds the ranges on screen, so that Save study
    // writes the picture the user sees.
    study::Study s = study_->study();
    if (s.analysis != shown.analysis || s.sweep.size() != shown.sweep.size()) return;
    s.sweep = shown.sweep;
    study_->setStudy(s);
}

void MainWindow::updateRunAction() {
    const int model_errors = editor_->problems()->errorCount();
    QString why;
    if (model_errors > 0)
        why = tr("The model has %n error(s); the problems list under the editor shows where.", "",
                 model_errors);
    else if (study_->hasErrors())
        why = study_->errorSummary();
    run_action_->setEnabled(why.isEmpty());
    run_action_->setToolTip(why.isEmpty() ? tr("Run the study (Ctrl+R)") : why);
}

bool MainWindow::openFile(const QString& path) {
    if (path.endsWith(".json", Qt::CaseInsensitive)) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && file.size() < 16 * 1024 * 1024 &&
            study::equilibrium_analysis_of(file.readAll().toStdString()))
            return openContinuationStudy(path);
    }
    if (!is_phase_plane_file(path)) return documents_->open(path);
    QString why;
    const auto study = load_phase_plane_file(path, why);
    if (PhasePlanePanel* panel = study ? plots_->addPhasePlaneTab(study, &why) : nullptr) {
        phase_planes_->track(panel, path);
        return true;
    }
    messages_->add(MessagesPanel::Level::Error, tr("%1: %2").arg(path, why));
    return false;
}

std::shared_ptr<const study::ResolvedEquilibriumStudy>
MainWindow::loadContinuationStudy(const QString& path) {
    const study::EquilibriumResolveResult loaded = study::load_equilibrium_study_file(path.toStdString());
    for (const auto& p : loaded.problems)
        messages_->add(p.severity == study::ProblemSeverity::Error ? MessagesPanel::Level::Error
                                                                   : MessagesPanel::Level::Warning,
                       tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(p.format())));
    return loaded.resolved;
}

// Equilibrium and continuation studies run outside the study panel (it edits ensemble studies): their
// branches open in a tab of their own, and the editor shows their model.
bool MainWindow::openContinuationStudy(const QString& path) {
    const auto resolved = loadContinuationStudy(path);
    if (!resolved) return false;
    const study::ModelSource& model = resolved->study.model;
    if (!model.path.empty()) {
        const QString model_path =
            QDir(QFileInfo(path).absolutePath()).absoluteFilePath(QString::fromStdString(model.path));
        documents_->openModel(model_path);
    } else {
        documents_->showModelText(QString::fromStdString(model.text));
    }
    BranchTab* tab = plots_->addBranchTab(resolved);
    tab->setBaseDirectory(QFileInfo(path).absolutePath().toStdString());
    continuations_->run(tab, resolved);
    recent_->add(QFileInfo(path).absoluteFilePath());
    return true;
}

bool MainWindow::overlayStudy(ResultTab* tab, const QString& path) {
    const auto resolved = loadContinuationStudy(path);
    if (!resolved) return false;
    continuations_->overlay(tab, resolved);
    return true;
}

PhasePlanePanel* MainWindow::showPhasePlane() {
    QString why;
    const auto study = phase_plane_of(documents_->studyForRun(), documents_->state().base_directory(), why);
    PhasePlanePanel* panel = study ? plots_->addPhasePlaneTab(study, &why) : nullptr;
    if (!panel) messages_->add(MessagesPanel::Level::Error, tr("No phase plane: %1").arg(why));
    // A view of the edited study, with no file of its own yet.
    phase_planes_->track(panel, QString());
    return panel;
}

void MainWindow::savePhasePlaneStudy(PhasePlanePanel& panel) {
    if (phase_planes_->saveAs(panel))
        messages_->add(MessagesPanel::Level::Info, tr("Saved %1").arg(phase_planes_->path(&panel)));
}

bool MainWindow::runStudy() {
    study::Study s = documents_->studyForRun();
    // An untitled study's picture says what it is: "duffing — bifurcation diagram over k".
    if (s.title.empty()) {
        const QString model_path = documents_->state().model_path;
        const QString model_name =
            model_path.isEmpty() ? QString() : QFileInfo(model_path).completeBaseName();
        s.title = plot::default_study_title(s, model_name).toStdString();
    }
    const study::ResolveResult resolved =
        study::resolve_study(s, documents_->state().base_directory().toStdString());
    if (!resolved.resolved) {
        QString text;
        for (const auto& p : resolved.problems)
            if (p.severity == study::ProblemSeverity::Error)
                text += QString::fromStdString(p.format()) + "\n";
        messages_->add(MessagesPanel::Level::Error, tr("The study cannot run:\n%1").arg(text.trimmed()));
        return false;
    }
    ResultTab* tab = plots_->addResultTab(resolved.resolved);
    // The document's branches are drawn over its newest result, and follow what is done there.
    tab->setInitialBranches(documents_->branches());
    document_tab_ = tab;
    connect(tab, &ResultTab::branchesChanged, this, [this, tab](std::shared_ptr<const plot::Overlays> b) {
        if (tab == document_tab_) documents_->setBranches(std::move(b));
    });
    runs_->run(tab, resolved.resolved);
    return true;
}

void MainWindow::offerRecovery() {
    RecoveryDialog dialog(*recovery_, this);
    if (dialog.pendingCount() == 0) return;
    connect(&dialog, &RecoveryDialog::restoreChosen, this, &MainWindow::restoreRecovery);
    dialog.exec();
}

void MainWindow::restoreRecovery(const RecoverySnapshot& snapshot) {
    documents_->restore(snapshot.model_text, snapshot.model_path, snapshot.study_json, snapshot.study_path);
    for (qsizetype i = 0; i < snapshot.phase_planes.size(); ++i) {
        const RecoveredPhasePlane& plane = snapshot.phase_planes[i];
        QString why;
        if (restorePhasePlane(plane, why)) continue;
        const QString name = plane.path.isEmpty() ? tr("number %1 (no file yet)").arg(i + 1)
                                                  : QFileInfo(plane.path).fileName();
        messages_->add(MessagesPanel::Level::Error,
                       tr("The recovered phase plane %1 could not be restored: %2").arg(name, why));
    }
    messages_->add(MessagesPanel::Level::Info, tr("Recovered the unsaved work of an earlier session."));
}

QList<RecoveredPhasePlane> MainWindow::phasePlaneSnapshots() const {
    QList<RecoveredPhasePlane> planes;
    const QTabWidget& tabs = plots_->tabs();
    for (int i = 0; i < tabs.count(); ++i)
        if (const auto* panel = qobject_cast<const PhasePlanePanel*>(tabs.widget(i)))
            planes.append({phase_plane_study_text(*panel), phase_planes_->path(panel)});
    return planes;
}

// As the recovered study: the file's view shown through the panel first gives the text the view is
// compared with, then the recovered view replaces it.
bool MainWindow::restorePhasePlane(const RecoveredPhasePlane& plane, QString& why) {
    const QString base =
        plane.path.isEmpty() ? documents_->state().base_directory() : QFileInfo(plane.path).absolutePath();
    const auto recovered = phase_plane_of_text(plane.study_json, base, why);
    if (!recovered) return false;
    QString file_why;
    const auto on_disk = plane.path.isEmpty() ? nullptr : load_phase_plane_file(plane.path, file_why);
    PhasePlanePanel* panel = plots_->addPhasePlaneTab(on_disk ? on_disk : recovered, &why);
    if (!panel) return false;
    QString saved_text;
    if (on_disk) {
        saved_text = phase_plane_study_text(*panel);
        if (!panel->setStudy(recovered, &why)) {
            delete panel;
            return false;
        }
    }
    phase_planes_->track(panel, plane.path, saved_text);
    return true;
}

void MainWindow::retitle() {
    const DocumentState& state = documents_->state();
    setWindowTitle(state.model_display_name() + "[*] — Bifscope");
    setWindowModified(state.modified());
}

void MainWindow::showHelp(const QString& page) {
    if (!help_) {
        help_ = new HelpBrowser(this);
        help_->setWindowFlag(Qt::Window); // a window of its own beside the main one
        help_->setWindowTitle(tr("Bifscope help"));
        help_->resize(900, 700);
    }
    help_->showPage(page);
    help_->show();
    help_->raise();
}

void MainWindow::exportPicture(bool svg) {
    // A branch tab or a phase plane: both export themselves and say what failed.
    auto export_panel = [this, svg](auto* panel) {
        ExportDialog dialog(svg, panel->title(), documents_->state().base_directory(), this);
        if (dialog.exec() != QDialog::Accepted) return;
        const QString failure = svg ? panel->exportSvg(dialog.path(), dialog.size())
                                    : panel->exportPng(dialog.path(), dialog.size());
        messages_->add(failure.isEmpty() ? MessagesPanel::Level::Info : MessagesPanel::Level::Error,
                       failure.isEmpty() ? tr("Exported %1").arg(dialog.path()) : failure);
    };
    if (BranchTab* branches = plots_->currentBranchTab()) return export_panel(branches);
    if (PhasePlanePanel* plane = plots_->currentPhasePlane()) return export_panel(plane);
    ResultTab* tab = plots_->currentTab();
    if (!tab) return messages_->add(MessagesPanel::Level::Warning, tr("There is no result to export yet."));
    ExportDialog dialog(svg, tab->title(), documents_->state().base_directory(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    const QString error =
        svg ? (tab->writeSvg(dialog.path(), dialog.size()) ? QString()
                                                           : tr("Could not write %1").arg(dialog.path()))
            : plot::save_image(dialog.path(), tab->renderImage(dialog.size()));
    messages_->add(error.isEmpty() ? MessagesPanel::Level::Info : MessagesPanel::Level::Error,
                   error.isEmpty() ? tr("Exported %1").arg(dialog.path()) : error);
}

void MainWindow::exportCsv() {
    if (BranchTab* branches = plots_->currentBranchTab()) {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export branches"), documents_->state().base_directory(), tr("CSV (*.csv)"));
        if (path.isEmpty()) return;
        const QString failure = branches->exportCsv(path);
        return messages_->add(failure.isEmpty() ? MessagesPanel::Level::Info : MessagesPanel::Level::Error,
                              failure.isEmpty() ? tr("Exported %1").arg(path) : failure);
    }
    if (PhasePlanePanel* plane = plots_->currentPhasePlane()) {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export nullclines and trajectories"),
                                         documents_->state().base_directory(), tr("CSV (*.csv)"));
        if (path.isEmpty()) return;
        const QString failure = plane->exportCsv(path);
        return messages_->add(failure.isEmpty() ? MessagesPanel::Level::Info : MessagesPanel::Level::Error,
                              failure.isEmpty() ? tr("Exported %1").arg(path) : failure);
    }
    ResultTab* tab = plots_->currentTab();
    if (!tab || !tab->result())
        return messages_->add(MessagesPanel::Level::Warning,
                              tr("There is no finished result to export yet."));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export data"), documents_->state().base_directory(), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (tab->writeCsv(path, error))
        messages_->add(MessagesPanel::Level::Info, tr("Exported %1").arg(path));
    else
        messages_->add(MessagesPanel::Level::Error, error);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!documents_->maybeSaveBeforeClosing()) return event->ignore();
    runs_->cancel();
    continuations_->cancel();
    WindowSettings().save(*this);
    recovery_->markClean();
    event->accept();
}

} // namespace bif::ui
