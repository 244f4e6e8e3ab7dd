// The job API that the GUI and the command line use to run studies.
//
//   auto job = bif::jobs::submit(registry, resolved_study, options);   // starts a worker thread
//   job->cancel();                  // from any thread; honoured within 100 ms by conforming backends
//   job->wait();                    // or wait_for(timeout), or the on_finished callback
//   std::shared_ptr<const Result> r = job->result();
//
// With options.progressive, the job runs the grid coarse to fine and hands out each finished block
// through options.on_block, so that a plot fills in while it runs; a stand-in backend may provide
// provisional blocks while the selected backend compiles the model.
//
// Progress and completion callbacks run on the job's worker thread: a GUI forwards them to its own
// thread (a queued signal). Progress never goes backwards; the result is an immutable snapshot
// that stays valid however long anyone holds it. Destroying the last handle of a running job
// cancels it and waits for its thread.
#pragma once

#include "engine/jobs/backend_registry.h"
#include "engine/jobs/block_range.h"
#include "engine/jobs/result_block.h"
#include "engine/study/backend.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace bif::jobs {

enum class JobState {
    Running,
    Succeeded, // the result is complete
    Cancelled, // the result holds what was done before the cancel (info.complete == false)
    Failed,    // no result; failure() says why (no backend, a toolchain error, ...)
};
const char* name_of(JobState state);

struct JobOptions {
    std::optional<study::BackendChoice> backend; // unset: the study's "backend"
    unsigned threads = 0;                        // 0: all hardware threads
    std::size_t memory_budget_bytes = 0;         // 0: a quarter of the physical memory
    std::chrono::milliseconds progress_interval{100};
    study::ProgressSink on_progress; // worker thread
    // Worker thread, once result() and state() are set; wait() returns only after it did.
    std::function<void(JobState)> on_finished;

    // Run the grid in passes, coarse first, publishing blocks as they finish (see result_block.h and
    // pass_plan.h for which studies are cut and how). result() is the same as a one-pass run's, bit
    // for bit. Without it, a job with on_block publishes its whole result as one block at the end.
    bool progressive = false;
    // Worker thread, once per finished block, in the order they finish.
    std::function<void(std::shared_ptr<const ResultBlock>)> on_block;
    // Progressive jobs only: when the selected backend would compile before running (Backend::ready
    // is false) and this backend supports the study, it computes provisional blocks while the
    // selected one compiles (see evaluator_stand_in()). May be null.
    std::shared_ptr<study::Backend> stand_in;

    // A map study whose result should stay on a device (engine/study/kept_map.h), or a one-axis
    // diagram whose points should (kept_points.h): the selected backend's run_kept, after a
    // provisional preview block of the sample lattice (a diagram: every step-th value) when
    // progressive. Where the backend cannot keep it (study::NotKept), the job runs it as if unset and
    // says why in the result's notes; result()->kept or ->kept_points tells which happened. Not with
    // streaming.
    std::optional<study::KeepRequest> keep;

    // Streaming (bifscope-cli run --out): with keep_result false, the job runs the systems in order,
    // in blocks of consecutive systems, hands each to on_block (final, in system order) and keeps
    // none, so a study far larger than memory holds only the blocks in flight; result() then holds
    // system_count and info alone, no columns. A study that cannot be cut (continuation sweeps,
    // basins, trajectories) comes as one block. Not with progressive.
    bool keep_result = true;
    // Streaming block size; 0: from the memory budget (an eighth of it per block, at most 2^22).
    std::size_t stream_block_systems = 0;
    // Streaming only: the ranges to run, one block each, instead of every system in order (a process
    // of a distributed run asks its coordinator). The job ends when it returns nullopt. Called only
    // once the block before is handed to on_block (it may wait for that block to arrive elsewhere).
    RangeSource next_range;
};

class Job {
  public:
    Job(const Job&) = delete;
    Job& operator=(const Job&) = delete;
    ~Job();

    void cancel() noexcept;
    bool cancel_requested() const noexcept;

    JobState state() const;
    bool finished() const { return state() != JobState::Running; }
    void wait() const;
    // True when the job finished within the timeout.
    bool wait_for(std::chrono::milliseconds timeout) const;

    study::Progress progress() const;
    // Set when the state is Succeeded or Cancelled; null while running and after a failure.
    std::shared_ptr<const study::Result> result() const;
    std::string failure() const;
    const study::ResolvedStudy& study() const;

    struct Shared; // what the worker thread shares with the handle; outlives either

  private:
    friend std::shared_ptr<Job> submit(const BackendRegistry&, std::shared_ptr<const study::ResolvedStudy>,
                                       JobOptions);
    explicit Job(std::shared_ptr<Shared> shared);

    std::shared_ptr<Shared> shared_;
    std::thread thread_;
};

// Starts running `study` on a worker thread with the backend the registry selects for it. The
// registry is copied (backends are shared), so it need not outlive the job.
std::shared_ptr<Job> submit(const BackendRegistry& registry,
                            std::shared_ptr<const study::ResolvedStudy> study, JobOptions options = {});

} // namespace bif::jobs
