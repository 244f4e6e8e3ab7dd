#include "engine/jobs/continuation_job.h"

#include "engine/continuation/equilibrium_study_run.h"
#include "engine/continuation/orbit_study_run.h"

#include <exception>

namespace bif::jobs {

ContinuationJob::ContinuationJob(std::shared_ptr<const study::ResolvedEquilibriumStudy> study,
                                 ContinuationJobOptions options)
    : study_(std::move(study)), options_(std::move(options)) {}

ContinuationJob::~ContinuationJob() {
    cancel();
    if (thread_.joinable()) thread_.join();
}

void ContinuationJob::run() {
    auto outcome = std::make_shared<ContinuationOutcome>();
    std::string failure;
    try {
        if (study_->study.is_orbit())
            outcome->orbit =
                std::make_shared<const cont::OrbitStudyOutcome>(cont::run_orbit_study(*study_, &cancel_));
        else
            outcome->equilibria = std::make_shared<const cont::EquilibriumStudyOutcome>(
                cont::run_equilibrium_study(*study_, &cancel_));
    } catch (const std::exception& e) {
        failure = e.what();
    }
    outcome->cancelled = cancel_.load();
    JobState state = !failure.empty()     ? JobState::Failed
                     : outcome->cancelled ? JobState::Cancelled
                                          : JobState::Succeeded;
    {
        std::lock_guard lock(mutex_);
        if (state != JobState::Failed) result_ = std::move(outcome);
        failure_ = std::move(failure);
        state_ = state;
    }
    if (options_.on_finished) options_.on_finished(state);
    {
        std::lock_guard lock(mutex_);
        callback_done_ = true;
    }
    done_.notify_all();
}

JobState ContinuationJob::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void ContinuationJob::wait() const {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [this] { return callback_done_; });
}

std::shared_ptr<const ContinuationOutcome> ContinuationJob::result() const {
    std::lock_guard lock(mutex_);
    return result_;
}

std::string ContinuationJob::failure() const {
    std::lock_guard lock(mutex_);
    return failure_;
}

std::shared_ptr<ContinuationJob>
submit_continuation(std::shared_ptr<const study::ResolvedEquilibriumStudy> study,
                    ContinuationJobOptions options) {
    std::shared_ptr<ContinuationJob> job(new ContinuationJob(std::move(study), std::move(options)));
    // The thread runs on the object the handle owns; the destructor joins it before that goes away.
    job->thread_ = std::thread([raw = job.get()] { raw->run(); });
    return job;
}

} // namespace bif::jobs
