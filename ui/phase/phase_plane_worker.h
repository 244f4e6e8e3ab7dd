// Computes phase portraits and trajectories on a thread of its own, for the phase-plane panel: the
// latest portrait request wins (a slider dragged faster than redraws skips the values in between),
// trajectories are computed in the order asked. Results come back as signals on the UI thread.
#pragma once

#include "engine/analysis/phase_plane_portrait.h"
#include "engine/analysis/phase_plane_trajectory.h"

#include <QObject>
#include <QString>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace bif::ui {

class PhasePlaneWorker : public QObject {
    Q_OBJECT
  public:
    explicit PhasePlaneWorker(QObject* parent = nullptr);
    ~PhasePlaneWorker() override;

    // Returns the request's number (growing from 1); an older request still waiting is dropped.
    quint64 requestPortrait(analysis::PlanarSystem system, analysis::PortraitSettings settings);
    // `tag` comes back with the trajectory (the panel's generation of the plane it belongs to).
    void requestTrajectory(analysis::PlanarSystem system, analysis::PlanePoint start,
                           analysis::PlanarTrajectorySettings settings, quint64 tag);
    // Whether anything is asked for or being computed.
    bool busy() const;

  signals:
    void portraitReady(quint64 request, std::shared_ptr<const bif::analysis::PhasePortrait> portrait,
                       double milliseconds);
    void trajectoryReady(quint64 tag, const bif::analysis::PlanarTrajectory& trajectory);
    void failed(const QString& why);

  private:
    struct PortraitJob {
        quint64 request;
        analysis::PlanarSystem system;
        analysis::PortraitSettings settings;
    };
    struct TrajectoryJob {
        quint64 tag;
        analysis::PlanarSystem system;
        analysis::PlanePoint start;
        analysis::PlanarTrajectorySettings settings;
    };

    void loop();
    void runPortrait(PortraitJob job);
    void runTrajectory(TrajectoryJob job);

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::optional<PortraitJob> portrait_;
    std::deque<TrajectoryJob> trajectories_;
    bool working_ = false;
    bool stopping_ = false;
    quint64 last_request_ = 0;
    std::thread thread_;
};

} // namespace bif::ui
