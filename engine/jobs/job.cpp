#include "engine/jobs/job.h"

#include "engine/jobs/block_memory.h"
#include "engine/jobs/deferred_compile.h"
#include "engine/jobs/kept_run.h"
#include "engine/jobs/pass_runner.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace bif::jobs {

struct Job::Shared {
    std::shared_ptr<const study::ResolvedStudy> study;
    JobOptions options;
    std::atomic<bool> cancel{false};
    mutable std::mutex mutex;
    mutable std::condition_variable done_changed;
    JobState state = JobState::Running;
    bool done = false; // state final and on_finished returned
    study::Progress progress;
    std::shared_ptr<const study::Result> result;
    std::string failure;
    std::string not_kept; // why options.keep was not honoured

    void run(const BackendRegistry& registry);
    study::Result run_on(study::Backend& backend, study::RunControl& control);
    study::Result run_streamed(study::Backend& backend, study::RunControl& control);
    void finish(JobState final_state, std::shared_ptr<const study::Result> final_result, std::string why);
};

const char* name_of(JobState state) {
    switch (state) {
    case JobState::Running:
        return "running";
    case JobState::Succeeded:
        return "succeeded";
    case JobState::Cancelled:
        return "cancelled";
    case JobState::Failed:
        return "failed";
    }
    return "?";
}

Job::Job(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}

Job::~Job() {
    cancel();
    if (!thread_.joinable()) return;
    // The last handle may be dropped inside a callback, on the worker thread itself; the worker keeps
    // the shared part alive on its own.
    if (thread_.get_id() == std::this_thread::get_id())
        thread_.detach();
    else
        thread_.join();
}

void Job::cancel() noexcept {
    shared_->cancel.store(true);
}
bool Job::cancel_requested() const noexcept {
    return shared_->cancel.load();
}
const study::ResolvedStudy& Job::study() const {
    return *shared_->study;
}

JobState Job::state() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->state;
}

void Job::wait() const {
    std::unique_lock lock(shared_->mutex);
    shared_->done_changed.wait(lock, [&] { return shared_->done; });
}

bool Job::wait_for(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(shared_->mutex);
    return shared_->done_changed.wait_for(lock, timeout, [&] { return shared_->done; });
}

study::Progress Job::progress() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->progress;
}

std::shared_ptr<const study::Result> Job::result() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->result;
}

std::string Job::failure() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->failure;
}

void Job::Shared::finish(JobState final_state, std::shared_ptr<const study::Result> final_result,
                         std::string why) {
    {
        std::lock_guard lock(mutex);
        state = final_state;
        result = std::move(final_result);
        failure = std::move(why);
    }
    if (options.on_finished) options.on_finished(final_state);
    {
        std::lock_guard lock(mutex);
        done = true;
    }
    done_changed.notify_all();
}

study::Result Job::Shared::run_on(study::Backend& backend, study::RunControl& control) {
    if (!options.keep_result) return run_streamed(backend, control);
    if (options.keep) {
        try {
            return run_kept_map(*study, *options.keep, backend, control, options.on_block,
                                options.progressive);
        } catch (const study::NotKept& e) {
            not_kept = e.what();
            if (cancel.load()) { // cancelled during the preview: nothing ran to keep
                study::Result none;
                none.analysis = study->study.analysis;
                none.system_count = study->system_count();
                return none;
            }
        }
    }
    if (!options.progressive && !options.on_block) return backend.run(*study, control);
    // One system per thread first: the first pixels come as soon as one system can (on a GPU, as
    // soon as a GPU's width of them can: plan_passes).
    const std::size_t first_block = std::clamp<std::size_t>(control.threads(), 2, 64);
    const PassPlan plan = options.progressive
                              ? plan_passes(*study, first_block, backend.parallel_systems(*study))
                              : single_block_plan(*study);
    PassRunSetup setup;
    setup.backend = &backend;
    // A quicker build of the same backend (GPU code compiled for speed of compiling) previews sooner
    // than the CPU stand-in where the selected backend offers one.
    std::shared_ptr<study::Backend> quick =
        options.progressive && options.stand_in ? backend.quick_stand_in() : nullptr;
    setup.stand_in = !options.progressive ? nullptr : quick ? quick : options.stand_in;
    setup.cancel = &cancel;
    setup.control = &control;
    setup.on_block = options.on_block;
    return run_in_passes(*study, plan, setup);
}

namespace {

// An eighth of the memory budget per block (the block a backend fills, the one being written and
// the backend's own buffers share the rest), from the size of one system's values.
std::size_t stream_block_size(const study::ResolvedStudy& s, std::size_t budget_bytes) {
    study::ResolvedStudy one = s;
    one.grid = s.grid.subset({0});
    const study::Result layout = study::allocate_result(one);
    const std::size_t bytes =
        sizeof(double) * (layout.axes.size() + layout.scalars.size() + 1 + layout.points.values.size()) +
        sizeof(std::uint32_t) + sizeof(study::SystemStatus);
    return std::clamp<std::size_t>(budget_bytes / 8 / bytes, 1024, reusable_block_systems);
}

} // namespace

study::Result Job::Shared::run_streamed(study::Backend& backend, study::RunControl& control) {
    PassRunSetup setup;
    setup.backend = &backend;
    setup.cancel = &cancel;
    setup.control = &control;
    setup.on_block = options.on_block;
    setup.keep_whole = false;
    keep_block_memory();
    // a GPU block's host work (split, allocation, batches, assembly) runs beside the next one's kernels
    setup.blocks_at_once = backend.name() == "cuda" ? 2 : 1;
    if (options.next_range) return run_ranges(*study, options.next_range, setup);
    const std::size_t block = options.stream_block_systems != 0
                                  ? options.stream_block_systems
                                  : stream_block_size(*study, control.memory_budget_bytes());
    return run_in_order(*study, block, setup);
}

void Job::Shared::run(const BackendRegistry& registry) {
    auto sink = [this](const study::Progress& p) {
        {
            std::lock_guard lock(mutex);
            progress = p;
        }
        if (options.on_progress) options.on_progress(p);
    };
    study::RunControl control(cancel, sink, options.threads, options.memory_budget_bytes,
                              options.progress_interval);
    const study::BackendChoice choice = options.backend.value_or(study->study.backend);
    BackendSelection selection = registry.select(choice, *study, &control);
    if (!selection.backend) return finish(JobState::Failed, nullptr, selection.failure);
    run_on_cpu_while_compiling(registry, choice, *study, selection);
    study::Result r;
    try {
        r = run_on(*selection.backend, control);
    } catch (const std::exception& e) {
        return finish(JobState::Failed, nullptr, selection.backend->name() + ": " + e.what());
    }
    if (!not_kept.empty())
        r.info.notes.insert(r.info.notes.begin(), "the result is in host memory: " + not_kept);
    r.info.notes.insert(r.info.notes.begin(), selection.notes.begin(), selection.notes.end());
    if (r.info.backend.empty()) r.info.backend = selection.backend->name();
    r.info.total_seconds = control.elapsed_seconds();
    const bool complete = r.info.complete;
    finish(complete ? JobState::Succeeded : JobState::Cancelled,
           std::make_shared<const study::Result>(std::move(r)), {});
}

std::shared_ptr<Job> submit(const BackendRegistry& registry,
                            std::shared_ptr<const study::ResolvedStudy> study, JobOptions options) {
    auto shared = std::make_shared<Job::Shared>();
    shared->study = std::move(study);
    shared->options = std::move(options);
    std::shared_ptr<Job> job(new Job(shared));
    job->thread_ = std::thread([shared, registry] { shared->run(registry); });
    return job;
}

} // namespace bif::jobs
