// What runs a resolved study: the Backend interface that the CPU and CUDA backends implement, and the
// RunControl a backend receives from the job (cancel flag, progress sink, threads, memory budget).
//
// Contract for implementations:
//   - run() returns the layout of allocate_result(study) with values and statuses filled in, and
//     fills result.info (backend, device, precision, code path, timings, complete).
//   - Check control.cancelled() often enough that a cancel is honoured within 100 ms (per section,
//     per chunk of steps); on cancel, return what is done with info.complete = false. Never throw
//     for cancellation.
//   - Report progress through control.report_progress as often as convenient (it is throttled and
//     thread-safe); systems_done only grows.
//   - Numerical failure of a system is a status in the result, never an exception. Toolchain and
//     system failures (a compiler that crashes, a CUDA error) throw BackendError with a message the
//     user can act on.
//   - Use at most control.threads() threads and keep working memory under
//     control.memory_budget_bytes() by running systems in chunks.
#pragma once

#include "engine/study/kept_map.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bif::study {

struct Progress {
    double fraction = 0.0; // 0..1, never decreasing within a job
    std::size_t systems_done = 0;
    std::size_t systems_total = 0;
    std::string phase; // "compiling model", "transient", "recording", ...
    double elapsed_seconds = 0.0;
};

using ProgressSink = std::function<void(const Progress&)>;

class RunControl {
  public:
    // `cancel` must outlive the control; `sink` may be empty. threads 0: all hardware threads.
    // memory_budget_bytes 0: a quarter of the physical memory.
    RunControl(const std::atomic<bool>& cancel, ProgressSink sink, unsigned threads = 0,
               std::size_t memory_budget_bytes = 0,
               std::chrono::milliseconds progress_interval = std::chrono::milliseconds(100));

    bool cancelled() const noexcept { return cancel_.load(std::memory_order_relaxed); }
    // For a control of a part of this run (a preview) that a cancel of this one stops.
    const std::atomic<bool>& cancel_flag() const noexcept { return cancel_; }
    unsigned threads() const noexcept { return threads_; }
    std::size_t memory_budget_bytes() const noexcept { return memory_budget_bytes_; }
    // How many systems fit the memory budget at `bytes_per_system` each (at least 1).
    std::size_t systems_per_chunk(std::size_t bytes_per_system) const noexcept;

    // Thread-safe. Calls the sink at most once per progress interval, except that a change of phase
    // and the first and last calls (systems_done == total) always go through. Values that would make
    // the progress go backwards are raised to the last reported ones.
    void report_progress(std::size_t systems_done, std::size_t systems_total, std::string_view phase);
    // The latest progress (including reports the throttle held back).
    Progress latest_progress() const;
    double elapsed_seconds() const;

  private:
    const std::atomic<bool>& cancel_;
    ProgressSink sink_;
    unsigned threads_;
    std::size_t memory_budget_bytes_;
    std::chrono::steady_clock::duration interval_;
    std::chrono::steady_clock::time_point start_;
    mutable std::mutex mutex_;
    std::mutex send_mutex_;
    Progress latest_;
    std::chrono::steady_clock::time_point last_sent_{};
    bool sent_any_ = false;
};

class BackendError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct Availability {
    bool available = false;
    std::string reason; // why not, one line; empty when available
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0; // "cpu", "cuda"
    // Whether this backend can run at all on this machine (a GPU and its driver, ...). May be slow
    // the first time (loading a driver); the answer may be cached.
    virtual Availability availability() const = 0;
    // Whether it can run this study (methods, sizes); the default says yes.
    virtual Availability supports(const ResolvedStudy& study) const;
    virtual Result run(const ResolvedStudy& study, RunControl& control) = 0;

    // Whether a run of this study starts without compiling first (its code is compiled and cached,
    // or this backend never compiles). A job uses it to decide whether a stand-in should show the
    // first passes meanwhile.
    virtual bool ready(const ResolvedStudy&) const { return true; }
    // Compiles and caches this study's code now, without running it; returns early on a cancel.
    // Never throws for a failing compiler: run() reports that (or falls back) as it always does.
    // Thread-safe with respect to run() on another study copy.
    virtual void prepare(const ResolvedStudy&, RunControl&) {}
    // A backend of the same kind whose code compiles in a fraction of the time (and runs slower), for
    // the preview passes of a job while this one compiles; null when there is none.
    virtual std::shared_ptr<Backend> quick_stand_in() { return nullptr; }
    // Where a run of this study would first wait long for its code (a big model's GPU module) and
    // this backend may compile it in the background instead: starts that compile, into its cache for
    // the study's later runs, and returns a one-line note for the run that goes to another backend
    // meanwhile (jobs: auto's choice then runs on the CPU). Empty, starting nothing, where the study
    // runs here without such a wait or the program runs no background compiles (the default).
    virtual std::string compile_in_background(const ResolvedStudy&) { return {}; }
    // How many of this study's systems the backend runs side by side in the time of one (the
    // resident threads of a GPU kernel, over every GPU it would use); 0 where each system has a thread
    // of the run to itself (the CPU). A progressive job sizes its blocks by it: on a GPU a pass of
    // fewer systems costs as much as one of that many.
    virtual std::size_t parallel_systems(const ResolvedStudy&) const { return 0; }
    // Does ahead of time what every first run would pay for (loading a driver, creating device
    // contexts), so that an application can call it on a worker thread at start-up.
    virtual void warm_up() {}
    // Runs a map study and keeps the columns `keep` names on its device (engine/study/kept_map.h):
    // the Result holds system_count, info and `kept` alone. Throws NotKept where this backend cannot
    // keep this study there (the default: it keeps nothing), before running anything; otherwise as
    // run().
    virtual Result run_kept(const ResolvedStudy&, const KeepRequest&, RunControl&) {
        throw NotKept("the " + name() + " backend keeps no results on a device");
    }
};

} // namespace bif::study
