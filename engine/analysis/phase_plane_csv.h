// A phase plane as CSV: one row per point of each nullcline and trajectory, and one per
// equilibrium, under the header
//   curve,index,t,<x name>,<y name>,note
// curve is "nullcline <x name>' = 0" or "... <y name>' = 0" (index: the polyline), "trajectory"
// (index: the trajectory, t its time from the start point, negative backward) or "equilibrium"
// (note: its type and eigenvalues). Numbers are written to 17 significant digits.
#pragma once

#include "engine/analysis/phase_plane_portrait.h"
#include "engine/analysis/phase_plane_trajectory.h"

#include <ostream>
#include <string>
#include <vector>

namespace bif::analysis {

// "unstable focus, eigenvalues 0.5 +- 0.866i": an equilibrium's note.
std::string describe_equilibrium(const Equilibrium& e);

void write_phase_plane_csv(std::ostream& out, const std::string& x_name, const std::string& y_name,
                           const PhasePortrait& portrait, const std::vector<PlanarTrajectory>& trajectories);

} // namespace bif::analysis
