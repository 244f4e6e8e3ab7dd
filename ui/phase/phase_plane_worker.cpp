#include "ui/phase/phase_plane_worker.h"

#include <QMetaObject>
#include <chrono>
#include <exception>

namespace bif::ui {

PhasePlaneWorker::PhasePlaneWorker(QObject* parent) : QObject(parent), thread_([this] { loop(); }) {}

PhasePlaneWorker::~PhasePlaneWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

quint64 PhasePlaneWorker::requestPortrait(analysis::PlanarSystem system,
                                          analysis::PortraitSettings settings) {
    quint64 request;
    {
        std::lock_guard lock(mutex_);
        request = ++last_request_;
        portrait_.emplace(PortraitJob{request, std::move(system), settings});
    }
    wake_.notify_all();
    return request;
}

void PhasePlaneWorker::requestTrajectory(analysis::PlanarSystem system, analysis::PlanePoint start,
                                         analysis::PlanarTrajectorySettings settings, quint64 tag) {
    {
        std::lock_guard lock(mutex_);
        trajectories_.push_back({tag, std::move(system), start, settings});
    }
    wake_.notify_all();
}

bool PhasePlaneWorker::busy() const {
    std::lock_guard lock(mutex_);
    return working_ || portrait_ || !trajectories_.empty();
}

void PhasePlaneWorker::loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || portrait_ || !trajectories_.empty(); });
        if (stopping_) return;
        working_ = true;
        // The portrait first: the picture under the trajectories matters most while a slider moves.
        if (portrait_) {
            PortraitJob job = std::move(*portrait_);
            portrait_.reset();
            lock.unlock();
            runPortrait(std::move(job));
        } else {
            TrajectoryJob job = std::move(trajectories_.front());
            trajectories_.pop_front();
            lock.unlock();
            runTrajectory(std::move(job));
        }
        lock.lock();
        working_ = false;
    }
}

void PhasePlaneWorker::runPortrait(PortraitJob job) {
    try {
        const auto start = std::chrono::steady_clock::now();
        auto portrait = std::make_shared<const analysis::PhasePortrait>(
            analysis::compute_portrait(job.system, job.settings));
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        QMetaObject::invokeMethod(
            this, [this, request = job.request, portrait, ms] { emit portraitReady(request, portrait, ms); },
            Qt::QueuedConnection);
    } catch (const std::exception& e) {
        QMetaObject::invokeMethod(
            this, [this, why = QString::fromStdString(e.what())] { emit failed(why); }, Qt::QueuedConnection);
    }
}

void PhasePlaneWorker::runTrajectory(TrajectoryJob job) {
    try {
        auto t = analysis::integrate_trajectory(job.system, job.start, job.settings);
        QMetaObject::invokeMethod(
            this, [this, tag = job.tag, t = std::move(t)] { emit trajectoryReady(tag, t); },
            Qt::QueuedConnection);
    } catch (const std::exception& e) {
        QMetaObject::invokeMethod(
            this, [this, why = QString::fromStdString(e.what())] { emit failed(why); }, Qt::QueuedConnection);
    }
}

} // namespace bif::ui
