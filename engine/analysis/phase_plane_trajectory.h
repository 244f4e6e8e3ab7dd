// Trajectories of a planar system from a clicked point, forward and backward in time, integrated by
// the kernels' Dormand-Prince 5(4) (bif/steppers/dopri5.h) on the host. The model's events and
// resets do not act here: the phase plane shows the smooth planar flow.
#pragma once

#include "engine/analysis/phase_plane_contours.h"
#include "engine/analysis/phase_plane_system.h"

#include <cstddef>
#include <vector>

namespace bif::analysis {

struct PlanarTrajectorySettings {
    double duration = 50.0; // forward, and as long backward
    double rtol = 1e-9, atol = 1e-11;
    // Integration stops once |x| or |y| exceeds this (the trajectory has left for infinity);
    // 0: ten times the window's extent.
    double bound = 0.0;
    PlaneWindow window; // sets the spacing of the dense samples (about 1/400 of its diagonal)
};

// One trajectory through `start`, in time order: points[0..start_index) run backward in time
// (earliest first), points[start_index] is the start, the rest run forward. t[k] is the time of
// points[k] relative to the start.
struct PlanarTrajectory {
    PlanePoint start;
    std::vector<PlanePoint> points;
    std::vector<double> t;
    std::size_t start_index = 0;
};

PlanarTrajectory integrate_trajectory(const PlanarSystem& system, PlanePoint start,
                                      const PlanarTrajectorySettings& settings);

} // namespace bif::analysis
