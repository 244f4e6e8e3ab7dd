#include "ui/run/study_runner.h"

#include "engine/jobs/installed_backends.h"

#include <QMetaObject>

namespace bif::ui {

StudyRunner::StudyRunner(QObject* parent)
    : QObject(parent), registry_(jobs::installed_backends(jobs::BackendUse::Interactive)),
      stand_in_(jobs::evaluator_stand_in()) {
    qRegisterMetaType<bif::study::Progress>();
    qRegisterMetaType<std::shared_ptr<const bif::jobs::ResultBlock>>();
    qRegisterMetaType<std::shared_ptr<const bif::study::Result>>();
    qRegisterMetaType<bif::jobs::JobState>();
    warm_up_ = std::thread([backends = registry_.backends()] {
        for (const auto& backend : backends)
            backend->warm_up();
    });
}

StudyRunner::~StudyRunner() {
    // Each job's destructor cancels it and joins its thread; what a job still posts dies with this object.
    for (auto& [id, job] : jobs_)
        job->cancel();
    jobs_.clear();
    warm_up_.join();
}

quint64 StudyRunner::run(std::shared_ptr<const study::ResolvedStudy> study, const RunRequest& request) {
    cancel();
    const quint64 id = ++current_id_;
    jobs::JobOptions options;
    options.backend = request.backend;
    options.threads = request.threads;
    options.progressive = request.progressive;
    options.keep = request.keep;
    options.stand_in = stand_in_;
    // The callbacks run on the job's worker thread: each is posted to this object's (the UI) thread.
    options.on_progress = [this, id](const study::Progress& p) {
        QMetaObject::invokeMethod(
            this, [this, id, p] { emit progressed(id, p); }, Qt::QueuedConnection);
    };
    options.on_block = [this, id](std::shared_ptr<const jobs::ResultBlock> block) {
        QMetaObject::invokeMethod(
            this, [this, id, block] { emit blockReady(id, block); }, Qt::QueuedConnection);
    };
    options.on_finished = [this, id](jobs::JobState state) {
        QMetaObject::invokeMethod(
            this, [this, id, state] { retire(id, state); }, Qt::QueuedConnection);
    };
    jobs_[id] = jobs::submit(registry_, std::move(study), std::move(options));
    return id;
}

void StudyRunner::retire(quint64 run, jobs::JobState state) {
    const auto it = jobs_.find(run);
    if (it == jobs_.end()) return;
    const std::shared_ptr<const study::Result> result = it->second->result();
    const QString failure = QString::fromStdString(it->second->failure());
    jobs_.erase(it); // finished: its thread is past the callback, so the join is immediate
    emit finished(run, state, result, failure);
}

void StudyRunner::cancel() {
    for (auto& [id, job] : jobs_)
        job->cancel();
}

bool StudyRunner::busy() const {
    const auto it = jobs_.find(current_id_);
    return it != jobs_.end() && !it->second->finished();
}

} // namespace bif::ui
