#include "ui/study/study_checker.h"

#include <QtConcurrent/QtConcurrentRun>

namespace bif::ui {

StudyChecker::StudyChecker(QObject* parent) : QObject(parent) {
    debounce_.setSingleShot(true);
    debounce_.setInterval(250);
    connect(&debounce_, &QTimer::timeout, this, &StudyChecker::start);
    connect(&watcher_, &QFutureWatcher<study::ResolveResult>::finished, this, &StudyChecker::finished);
}

void StudyChecker::request(study::Study study, std::string base_directory) {
    pending_.emplace(std::move(study), std::move(base_directory));
    debounce_.start();
}

void StudyChecker::start() {
    // One check at a time; the newest waits for the running one and then starts.
    if (watcher_.isRunning() || !pending_) return;
    auto [study, base] = std::move(*pending_);
    pending_.reset();
    watcher_.setFuture(QtConcurrent::run(
        [study = std::move(study), base = std::move(base)] { return study::resolve_study(study, base); }));
}

void StudyChecker::finished() {
    // A result older than a pending request is dropped: the newer check follows.
    if (pending_) {
        if (!debounce_.isActive()) start();
        return;
    }
    emit checked(watcher_.result());
}

} // namespace bif::ui
