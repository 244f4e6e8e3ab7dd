// The host side of orbit refinement (kernels/bif/study/orbit_refine.h), shared by both backends:
// from a finished bifurcation diagram's Result, the systems to refine (those that finished with a
// period of their recorded section points within max_period), their guesses (the last recorded row)
// and periods in the structure-of-arrays layout of an OrbitView; the outputs stored back into the
// Result's orbit columns (engine/study/orbit_columns.h).
//
//   OrbitBatch batch = make_orbit_batch(study, result);
//   ... refine_orbit for each i < batch.count over orbit_view_of(batch) (a backend's loop or kernel)
//   store_orbits(batch, result);
#pragma once

#include "bif/study/orbit_refine.h"
#include "engine/study/result.h"

#include <cstddef>
#include <vector>

namespace bif::study {
struct ResolvedStudy;
}

namespace bif::ensemble {

struct OrbitBatch {
    std::size_t count = 0; // systems to refine
    int states = 0, axes = 0;
    std::vector<std::size_t> systems; // the Result's system of each
    // inputs ([c * count + i], as OrbitView)
    std::vector<double> axis_values;
    std::vector<double> guess;
    std::vector<int> period;
    // outputs
    std::vector<double> point;
    std::vector<double> multipliers;
    std::vector<double> max_modulus;
    std::vector<int> iterations;
    std::vector<int> status;
};

// The period of a system's recorded section points: the smallest p <= max_period such that every
// row matches the one p rows later, each value within tolerance * (1 + |value|), with at least two
// full cycles recorded (bif/study/period.h's rule, on the host); 0 for none.
int detected_period(const study::PointBlock& points, std::size_t system, double tolerance, int max_period);

// The systems of `result` to refine, with their inputs; outputs NaN, statuses not run. Writes the
// orbit status of the other systems that finished (no period) into `result`. Requires
// study::refines_orbits(study).
OrbitBatch make_orbit_batch(const study::ResolvedStudy& study, study::Result& result);

// The settings the kernels read.
OrbitSettings orbit_settings(const study::ResolvedStudy& study);

OrbitView<double> orbit_view_of(OrbitBatch& batch);

// The batch's outputs into the result's orbit columns.
void store_orbits(const OrbitBatch& batch, study::Result& result);

} // namespace bif::ensemble
