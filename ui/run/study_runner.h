// Runs studies for the UI: the engine's job API on its own worker thread, every callback brought to
// the UI thread as a queued signal, so the UI thread never waits on the engine.
//
// The latest request wins (as in Qt's Mandelbrot example): run() cancels the job in flight, and each
// signal carries its run's id so that a receiver can ignore what an older run still delivers.
#pragma once

#include "engine/jobs/backend_registry.h"
#include "engine/jobs/job.h"
#include "engine/jobs/result_block.h"
#include "engine/study/resolved_study.h"

#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <thread>

namespace bif::ui {

struct RunRequest {
    std::optional<study::BackendChoice> backend; // unset: the study's own choice
    bool progressive = true;                     // coarse passes first (engine/jobs/result_block.h)
    unsigned threads = 0;                        // 0: every hardware thread
    std::optional<study::KeepRequest> keep;      // a map kept on a device (JobOptions::keep)
};

class StudyRunner : public QObject {
    Q_OBJECT
  public:
    explicit StudyRunner(QObject* parent = nullptr);
    ~StudyRunner() override;

    // Starts the study; returns the run's id (ids grow from 1).
    quint64 run(std::shared_ptr<const study::ResolvedStudy> study, const RunRequest& request = {});
    void cancel();
    bool busy() const;
    quint64 currentRun() const { return current_id_; }
    const jobs::BackendRegistry& registry() const { return registry_; }

  signals:
    void progressed(quint64 run, const bif::study::Progress& progress);
    void blockReady(quint64 run, std::shared_ptr<const bif::jobs::ResultBlock> block);
    // state Succeeded or Cancelled: `result` is set; Failed: `failure` says why.
    void finished(quint64 run, bif::jobs::JobState state, std::shared_ptr<const bif::study::Result> result,
                  const QString& failure);

  private:
    void retire(quint64 run, jobs::JobState state);

    jobs::BackendRegistry registry_;
    std::shared_ptr<study::Backend> stand_in_;
    // Loads drivers and creates GPU contexts while the window opens (Backend::warm_up), so that the
    // first run does not pay for them; joined on destruction.
    std::thread warm_up_;
    // The current job and cancelled ones still winding down: a handle is dropped only once its job
    // has finished, so that dropping it never makes the UI thread wait for a worker.
    std::map<quint64, std::shared_ptr<jobs::Job>> jobs_;
    quint64 current_id_ = 0;
};

} // namespace bif::ui

Q_DECLARE_METATYPE(bif::study::Progress)
Q_DECLARE_METATYPE(std::shared_ptr<const bif::jobs::ResultBlock>)
Q_DECLARE_METATYPE(std::shared_ptr<const bif::study::Result>)
Q_DECLARE_METATYPE(bif::jobs::JobState)
