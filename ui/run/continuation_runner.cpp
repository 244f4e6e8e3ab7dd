#include "ui/run/continuation_runner.h"

#include <QMetaObject>

namespace bif::ui {

ContinuationRunner::ContinuationRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<std::shared_ptr<const jobs::ContinuationOutcome>>();
}

ContinuationRunner::~ContinuationRunner() {
    for (auto& [id, job] : jobs_)
        job->cancel();
    // Each job's destructor waits for its thread; what they queued dies with this object.
    jobs_.clear();
}

quint64 ContinuationRunner::run(std::shared_ptr<const study::ResolvedEquilibriumStudy> study) {
    const quint64 id = ++last_;
    jobs::ContinuationJobOptions options;
    // Worker thread: the job's handle is dropped on the UI thread, in the queued call, never here.
    options.on_finished = [this, id](jobs::JobState) {
        QMetaObject::invokeMethod(
            this,
            [this, id] {
                const auto found = jobs_.find(id);
                if (found == jobs_.end()) return;
                const std::shared_ptr<jobs::ContinuationJob> job = found->second;
                job->wait();
                jobs_.erase(found);
                emit finished(id, job->state(), job->result(), QString::fromStdString(job->failure()));
            },
            Qt::QueuedConnection);
    };
    jobs_[id] = jobs::submit_continuation(std::move(study), std::move(options));
    return id;
}

void ContinuationRunner::cancel() {
    for (auto& [id, job] : jobs_)
        job->cancel();
}

} // namespace bif::ui
