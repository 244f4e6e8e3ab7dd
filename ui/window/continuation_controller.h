// Runs continuations for the window: a continuation study opened by itself into a BranchTab, and
// "continue from here" on a diagram's point into that diagram's overlays. Each is a job of the
// ContinuationRunner (a worker thread; the end comes back as a queued signal); the status bar shows
// it running with its Cancel button, and the messages panel says how each branch ended.
#pragma once

#include "engine/study/equilibrium_study.h"
#include "ui/run/continuation_runner.h"

#include <QObject>
#include <QPointF>
#include <QPointer>
#include <map>
#include <memory>
#include <vector>

namespace bif::plot {
struct BranchOverlay;
using Overlays = std::vector<BranchOverlay>;
}

namespace bif::ui {

class BranchTab;
class MessagesPanel;
class ResultTab;
class StatusPanel;

class ContinuationController : public QObject {
    Q_OBJECT
  public:
    ContinuationController(StatusPanel& status, MessagesPanel& messages, QObject* parent = nullptr);

    // Runs the study into the tab.
    void run(BranchTab* tab, std::shared_ptr<const study::ResolvedEquilibriumStudy> study);
    // Continues the orbit of the diagram's `system` through `data` and adds its branch to the tab's
    // overlays when done; false (the messages say why) where no continuation starts there.
    bool continueFrom(ResultTab* tab, std::size_t system, QPointF data);
    // Runs a continuation study and adds what it finds to the tab's overlays (curves over a map,
    // branches over a diagram: they are drawn where their axes are the picture's).
    void overlay(ResultTab* tab, std::shared_ptr<const study::ResolvedEquilibriumStudy> study);
    // "Continue this branch": runs the study that computed the tab's branch `index` again from the
    // branch's last point and adds what it finds to the tab's overlays; false (the messages say why)
    // where the branch cannot go on (continuation_from_branch).
    bool continueBranch(ResultTab* tab, std::size_t index);
    // The same on a continuation study's own tab: what it finds is drawn there beside its branches.
    bool continueBranch(BranchTab* tab, std::size_t index);
    void cancel();
    bool running() const { return runner_.busy(); }

  signals:
    // A continuation ended and its overlays (if any) are shown.
    void finished(bool succeeded);

  private:
    struct Target {
        QPointer<BranchTab> branch_tab;
        QPointer<ResultTab> result_tab;
        std::shared_ptr<const study::ResolvedEquilibriumStudy> study;
        bool add_to_branch_tab = false; // branch_tab keeps its branches and shows the new ones too
    };
    // The study that continues `branch`, resolved from `base_directory`; null where none (the
    // messages say why).
    std::shared_ptr<const study::ResolvedEquilibriumStudy> continuationOf(const plot::BranchOverlay& branch,
                                                                          const std::string& base_directory);
    QString describeContinuation(const plot::BranchOverlay& branch) const;
    // Continues branches[index] (a tab's drawn overlays) into `target`, its study filled here.
    bool continueDrawn(const plot::Overlays& branches, std::size_t index, const std::string& base_directory,
                       Target target);
    void start(Target target, const QString& what);
    void onFinished(quint64 request, jobs::JobState state,
                    std::shared_ptr<const jobs::ContinuationOutcome> outcome, const QString& failure);

    ContinuationRunner runner_;
    StatusPanel& status_;
    MessagesPanel& messages_;
    std::map<quint64, Target> targets_;
};

} // namespace bif::ui
