// Equilibrium, continuation, curve and orbit studies (engine/study/equilibrium_study.h) as jobs: the
// same shape as job.h's ensemble jobs (a worker thread, cancel from any thread, a completion callback
// on the worker, an immutable result), so that a GUI runs a branch like any study without waiting.
//
//   auto job = bif::jobs::submit_continuation(resolved, {.on_finished = ...});
//   job->cancel();   // the branches end at the next continuation step (StopReason::Cancelled)
//
// The continuation core reports no fraction done: progress is the job's state alone.
#pragma once

#include "engine/jobs/job.h"
#include "engine/study/equilibrium_study.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

// Declared only: their headers (engine/continuation) name methods `slots`, which Qt's keyword macro
// breaks, and this header is included by Qt code. Include equilibrium_study_run.h and
// orbit_study_run.h before any Qt header where their members are read.
namespace bif::cont {
struct EquilibriumStudyOutcome;
struct OrbitStudyOutcome;
} // namespace bif::cont

namespace bif::jobs {

// What the study found: equilibria (equilibria, continuation, curves) or one orbit branch.
struct ContinuationOutcome {
    std::shared_ptr<const cont::EquilibriumStudyOutcome> equilibria;
    std::shared_ptr<const cont::OrbitStudyOutcome> orbit;
    bool cancelled = false; // the branches end where the cancel found them
};

struct ContinuationJobOptions {
    // Worker thread, once result() and state() are set; wait() returns only after it did.
    std::function<void(JobState)> on_finished;
};

class ContinuationJob {
  public:
    ContinuationJob(const ContinuationJob&) = delete;
    ContinuationJob& operator=(const ContinuationJob&) = delete;
    ~ContinuationJob(); // cancels a running job and waits for its thread

    void cancel() noexcept { cancel_.store(true); }
    JobState state() const;
    bool finished() const { return state() != JobState::Running; }
    void wait() const;
    // Set once Succeeded or Cancelled (what was continued before the cancel); null otherwise.
    std::shared_ptr<const ContinuationOutcome> result() const;
    std::string failure() const;
    const study::ResolvedEquilibriumStudy& study() const { return *study_; }

  private:
    friend std::shared_ptr<ContinuationJob>
        submit_continuation(std::shared_ptr<const study::ResolvedEquilibriumStudy>, ContinuationJobOptions);
    ContinuationJob(std::shared_ptr<const study::ResolvedEquilibriumStudy> study,
                    ContinuationJobOptions options);
    void run();

    std::shared_ptr<const study::ResolvedEquilibriumStudy> study_;
    ContinuationJobOptions options_;
    std::atomic<bool> cancel_{false};
    mutable std::mutex mutex_;
    mutable std::condition_variable done_;
    JobState state_ = JobState::Running;
    bool callback_done_ = false; // on_finished has returned
    std::shared_ptr<const ContinuationOutcome> result_;
    std::string failure_;
    std::thread thread_;
};

std::shared_ptr<ContinuationJob>
submit_continuation(std::shared_ptr<const study::ResolvedEquilibriumStudy> study,
                    ContinuationJobOptions options = {});

} // namespace bif::jobs
