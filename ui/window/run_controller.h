// Runs studies into result tabs: one run at a time (a new run cancels the one in flight, whose tab
// keeps its partial picture greyed), blocks routed to the tab that asked, the status bar and the
// messages panel kept up to date. Everything arrives through StudyRunner's queued signals.
#pragma once

#include "ui/run/study_runner.h"

#include <QObject>
#include <QPointer>
#include <optional>

namespace bif::ui {

class MessagesPanel;
class ResultTab;
class StatusPanel;

class RunController : public QObject {
    Q_OBJECT
  public:
    RunController(StudyRunner& runner, StatusPanel& status, MessagesPanel& messages,
                  QObject* parent = nullptr);

    void run(ResultTab* tab, std::shared_ptr<const study::ResolvedStudy> study);
    void cancel();
    // The tab no longer wants the run in flight (it went back to an earlier result): cancel it and
    // deliver nothing more to that tab.
    void abandon(ResultTab* tab);
    bool running() const { return running_; }
    // Asks (off the UI thread) which backend `auto` would use here and shows it in the status bar.
    void probeBackend();
    // Maps of at least this many cells keep their result on the GPU that draws them (issue 11) where
    // the CUDA backend is available; BIFSCOPE_KEEP_MAPS_FROM sets it (0: never).
    void setKeptMapCells(std::size_t cells) { kept_map_cells_ = cells; }
    std::size_t keptMapCells() const { return kept_map_cells_; }
    // One-axis diagrams of at least this many points (values x recorded sections) keep them there
    // too; BIFSCOPE_KEEP_POINTS_FROM sets it (0: never).
    void setKeptPoints(std::size_t points) { kept_points_ = points; }
    std::size_t keptPoints() const { return kept_points_; }

  signals:
    void runFinished(bif::ui::ResultTab* tab, bif::jobs::JobState state);

  private:
    void onProgress(quint64 run, const study::Progress& progress);
    void onBlock(quint64 run, std::shared_ptr<const jobs::ResultBlock> block);
    void onFinished(quint64 run, jobs::JobState state, std::shared_ptr<const study::Result> result,
                    const QString& failure);
    void report(const study::Result& result, const QString& title);
    std::optional<study::KeepRequest> keepRequest(const ResultTab& tab,
                                                  const study::ResolvedStudy& study) const;

    StudyRunner& runner_;
    StatusPanel& status_;
    MessagesPanel& messages_;
    QPointer<ResultTab> tab_;
    quint64 run_ = 0;
    bool running_ = false;
    std::size_t kept_map_cells_, kept_points_;
};

} // namespace bif::ui
