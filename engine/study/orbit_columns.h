// The refined orbits of a bifurcation diagram (BifurcationSettings::orbits) in its Result: scalar
// columns, one value per system, after the analysis's own:
//   orbit_status       OrbitStatus as a number (0 not run, 1 converged, 2 not converged, 3 singular,
//                      4 integration failed, 5 no period)
//   orbit_period       the period in forcing periods that was refined (the detected one; NaN: none)
//   orbit_iterations   Newton iterations taken
//   orbit_max_modulus  the largest |Floquet multiplier|
//   orbit_stable       1 when every multiplier lies inside the unit circle, else 0
//   orbit_<state>      the refined point: a fixed point of the period-p stroboscopic map started at
//                      t0, the orbit's section point with the smallest first state (the same point
//                      whichever of the orbit's points a system started from); the orbit's other
//                      p - 1 section points are its images under the one-period map
//   orbit_mu<k>_re, orbit_mu<k>_im   multiplier k = 1..N, by decreasing modulus
// Only converged systems have values past orbit_iterations. Being columns, they travel with the
// result's blocks (progressive passes, merges, CSV, HDF5) like any scalar.
//
// distinct_orbits() is the deduplicated view a plot or a table wants: one orbit per (parameter
// values, period, orbit), whichever and however many systems converged to it.
#pragma once

#include "engine/study/result.h"

#include <complex>
#include <string>
#include <vector>

namespace bif::study {

struct ResolvedStudy;

// Numerically equal to bif::ensemble::OrbitStatusCode (checked in engine/ensemble).
enum class OrbitStatus { NotRun, Converged, NotConverged, Singular, IntegrationFailed, NoPeriod };
const char* name_of(OrbitStatus status);

inline constexpr const char* orbit_status_column = "orbit_status";
inline constexpr const char* orbit_period_column = "orbit_period";
inline constexpr const char* orbit_iterations_column = "orbit_iterations";
inline constexpr const char* orbit_max_modulus_column = "orbit_max_modulus";
inline constexpr const char* orbit_stable_column = "orbit_stable";

// Whether the study refines its orbits (a bifurcation diagram with orbits.refine).
bool refines_orbits(const ResolvedStudy& study);
// The orbit columns' names in their order (empty when the study does not refine orbits).
std::vector<std::string> orbit_column_names(const ResolvedStudy& study);
// Where the orbit columns start among the Result's scalars; -1 when it has none.
int first_orbit_column(const Result& result);

struct RefinedOrbit {
    std::size_t system = 0;         // the first system that converged to it
    std::vector<double> parameters; // its values of the sweep's parameter axes
    int period = 0;
    std::vector<double> point; // N states
    std::vector<std::complex<double>> multipliers;
    double max_modulus = 0.0;
    bool stable = false;
    int systems = 0; // how many systems converged to it
};

// The converged orbits of `result`, one per (parameter values, period, point): two systems whose
// parameter values are equal, whose periods are equal and whose points agree within `tolerance`
// (max norm relative to 1 + |value|) report one orbit. In system order. Empty without orbit columns.
std::vector<RefinedOrbit> distinct_orbits(const ResolvedStudy& study, const Result& result,
                                          double tolerance = 1e-6);

} // namespace bif::study
