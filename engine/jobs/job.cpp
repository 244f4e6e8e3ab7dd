#include "engine/jobs/job.h"

namespace bif::jobs {

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

Job::Job(std::shared_ptr<const study::ResolvedStudy> study, JobOptions options)
    : study_(std::move(study)), options_(std::move(options)) {}

Job::~Job() {
    cancel();
    if (!thread_.joinable()) return;
    // The last handle may be dropped inside on_finished, on the worker thread itself.
    if (thread_.get_id() == std::this_thread::get_id())
        thread_.detach();
    else
        thread_.join();
}

void Job::cancel() noexcept {
    cancel_.store(true);
}

JobState Job::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void Job::wait() const {
    std::unique_lock lock(mutex_);
    finished_.wait(lock, [&] { return state_ != JobState::Running; });
}

bool Job::wait_for(std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    return finished_.wait_for(lock, timeout, [&] { return state_ != JobState::Running; });
}

study::Progress Job::progress() const {
    std::lock_guard lock(mutex_);
    return progress_;
}

std::shared_ptr<const study::Result> Job::result() const {
    std::lock_guard lock(mutex_);
    return result_;
}

std::string Job::failure() const {
    std::lock_guard lock(mutex_);
    return failure_;
}

void Job::finish(JobState state, std::shared_ptr<const study::Result> result, std::string failure) {
    {
        std::lock_guard lock(mutex_);
        state_ = state;
        result_ = std::move(result);
        failure_ = std::move(failure);
    }
    finished_.notify_all();
    if (options_.on_finished) options_.on_finished(state);
}

void Job::run(BackendRegistry registry) {
    auto sink = [this](const study::Progress& p) {
        {
            std::lock_guard lock(mutex_);
            progress_ = p;
        }
        if (options_.on_progress) options_.on_progress(p);
    };
    study::RunControl control(cancel_, sink, options_.threads, options_.memory_budget_bytes,
                              options_.progress_interval);
    const BackendSelection selection =
        registry.select(options_.backend.value_or(study_->study.backend), *study_);
    if (!selection.backend) return finish(JobState::Failed, nullptr, selection.failure);
    study::Result result;
    try {
        result = selection.backend->run(*study_, control);
    } catch (const std::exception& e) {
        return finish(JobState::Failed, nullptr, selection.backend->name() + ": " + e.what());
    }
    result.info.notes.insert(result.info.notes.begin(), selection.notes.begin(), selection.notes.end());
    if (result.info.backend.empty()) result.info.backend = selection.backend->name();
    result.info.total_seconds = control.elapsed_seconds();
    const bool complete = result.info.complete;
    finish(complete ? JobState::Succeeded : JobState::Cancelled,
           std::make_shared<const study::Result>(std::move(result)), {});
}

std::shared_ptr<Job> submit(const BackendRegistry& registry,
                            std::shared_ptr<const study::ResolvedStudy> study, JobOptions options) {
    std::shared_ptr<Job> job(new Job(std::move(study), std::move(options)));
    job->thread_ = std::thread(&Job::run, job.get(), registry);
    return job;
}

} // namespace bif::jobs
