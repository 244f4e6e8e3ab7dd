// One result in the plot area: the picture of a study's result (a density diagram or a map through
// PlotView, Lyapunov curves or a trajectory through Qt Charts), filled progressively while its run
// goes on, kept until the tab is closed. Zooming asks for the study on the new ranges; the tab keeps
// the results it has shown, so going back through the zoom history restores them without a rerun.
#pragma once

#include "engine/jobs/job.h"
#include "engine/jobs/result_block.h"
#include "engine/study/resolved_study.h"
#include "ui/plot/branch_overlay.h"

#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QStackedLayout;
class QUndoStack;

namespace bif::plot {
class ResultFigure;
}

namespace bif::ui {

class ResultView;

class ResultTab : public QWidget {
    Q_OBJECT
  public:
    explicit ResultTab(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent = nullptr);
    ~ResultTab() override;

    QString title() const;
    std::shared_ptr<const study::ResolvedStudy> study() const { return study_; }
    std::shared_ptr<const study::Result> result() const { return result_; } // null until a run ended
    bool stale() const { return stale_; }
    bool zoomable() const;
    ResultView& view() { return *view_; }
    // The dense picture of a diagram, map or basins; null for chart results.
    plot::ResultFigure* figure() const;
    // The study the tab was opened with, before any zoom (it fixes a map's tile lattice).
    std::shared_ptr<const study::ResolvedStudy> firstStudy() const { return first_study_; }
    QString renderPath() const;

    // A run of `study` into this tab starts (the first, or a zoom's): the picture on screen stays,
    // stretched to the new ranges, until the new blocks replace it.
    // `kept`: the run keeps its map on a device (JobOptions::keep).
    void beginRun(std::shared_ptr<const study::ResolvedStudy> study, bool kept = false);
    // ResultView::keptMapDevice of the tab's view.
    std::optional<int> keptMapDevice() const;
    void addBlock(const std::shared_ptr<const jobs::ResultBlock>& block);
    void endRun(jobs::JobState state, std::shared_ptr<const study::Result> result);
    // Greys the picture: what is shown is a cancelled or outdated partial result.
    void markStale(bool stale);

    QImage renderImage(QSize size) const;
    bool writeSvg(const QString& path, QSize size) const;
    // The result's CSV; where branches are drawn over it, also theirs beside it (branchCsvPath).
    bool writeCsv(const QString& path, QString& error) const;
    static QString branchCsvPath(const QString& path); // "x.csv" -> "x.branches.csv"

    // Continuation overlays drawn over the picture and in its exports, changed through an undo
    // history (adding a branch, removing one, or all): undoable and redoable.
    std::shared_ptr<const plot::Overlays> branches() const { return branches_; }
    void addBranches(const plot::Overlays& added);
    // The overlays the tab starts with (a reopened document's): shown without an undo step.
    void setInitialBranches(std::shared_ptr<const plot::Overlays> branches);
    void removeBranch(std::size_t index);
    void removeAllBranches();
    QUndoStack& branchHistory() { return *branch_history_; }
    // "Continue from here" at data point `data` of the picture (the menu's action, key B).
    void continueAt(QPointF data);
    // The menu of a point: continue from here, remove a branch, undo, redo.
    void showPointMenu(QPointF data, QPoint global);
    // "Continue this branch" on branch `index` (the menu's action).
    void continueBranch(std::size_t index) { emit continueBranchRequested(this, index); }

  public slots:
    void back();
    void forward();
    void resetView();

  signals:
    // The view moved to new ranges: run this study into the tab.
    void zoomRequested(const bif::study::Study& zoomed);
    void systemClicked(std::shared_ptr<const bif::study::ResolvedStudy> study, std::size_t system);
    void hoverText(const QString& text);
    // A zoom step came back to a result shown before: it is on screen again without a run.
    void restored();
    void renderPathChanged(const QString& path);
    // The user asked to continue the orbit of `system` through the point `data`.
    void continueRequested(bif::ui::ResultTab* tab, std::size_t system, QPointF data);
    // The user asked to draw a continuation study's branches or curves over the picture.
    void overlayStudyRequested(bif::ui::ResultTab* tab);
    // The user asked to run branch `index`'s continuation study again from the branch's last point.
    void continueBranchRequested(bif::ui::ResultTab* tab, std::size_t index);
    // The overlays on show changed: added, removed, undone or redone.
    void branchesChanged(std::shared_ptr<const bif::plot::Overlays> branches);

  private:
    friend class BranchChange;
    void showBranches(std::shared_ptr<const plot::Overlays> branches);
    void onZoom(const study::Study& zoomed);
    void remember();

    // Finished results: stepping back through the zoom history shows them again without a rerun. The
    // oldest go first past `cache_limit`.
    struct Shown {
        std::shared_ptr<const study::ResolvedStudy> study;
        std::shared_ptr<const study::Result> result;
    };
    static constexpr std::size_t cache_limit = 8;
    std::vector<Shown> cache_;
    std::shared_ptr<const study::ResolvedStudy> first_study_;
    std::shared_ptr<const study::ResolvedStudy> study_;
    std::shared_ptr<const study::Result> result_;
    std::unique_ptr<ResultView> view_;
    bool stale_ = false;
    std::shared_ptr<const plot::Overlays> branches_;
    QUndoStack* branch_history_;
};

} // namespace bif::ui
