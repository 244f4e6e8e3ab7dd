// How an equilibrium or orbit study (engine/study/equilibrium_study.h) drives the continuation core:
// its step sizes, point budget and parameter range as ContinuationSettings, and its direction (up,
// down or both ways from the start, joined into one branch).
#pragma once

#include "engine/continuation/joined_branch.h"
#include "engine/continuation/pseudo_arclength.h"
#include "engine/study/equilibrium_study.h"

#include <atomic>
#include <utility>
#include <vector>

namespace bif::cont {

// The study's settings for a branch of `unknowns` unknowns (the state, or an orbit's unknowns) whose
// first step goes `direction` (+1 or -1) in the parameter, kept to the study's [from, to].
ContinuationSettings continuation_settings(const study::EquilibriumStudy& study, int unknowns, int direction,
                                           const std::atomic<bool>* cancel);

// Whether two points of branches, each a parameter value and a state (or an orbit's unknowns), are
// one: within 1e-6 in the max norm, relative to 1 + the largest magnitude of the first (the same
// special point found on two branches, or twice on one).
bool same_branch_point(double parameter_a, const std::vector<double>& a, double parameter_b,
                       const std::vector<double>& b);

// `run(direction)` continued the way the study says: up (+1), down (-1), or both, the down part first.
template <class Run>
auto continued_in(study::ContinuationDirection direction, Run run) {
    if (direction == study::ContinuationDirection::Up) return run(1);
    auto down = run(-1);
    if (direction == study::ContinuationDirection::Down) return down;
    return joined(std::move(down), run(1));
}

} // namespace bif::cont
