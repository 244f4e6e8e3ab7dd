// Runs an orbit_continuation study (engine/study/equilibrium_study.h) on the CPU: the period map
// the study names (P^k of a map, the stroboscopic map of a forced flow, shooting for an autonomous
// flow), an optional transient from the start state onto an attractor, Newton at the parameter's
// start value, then the branch through it (orbit_branch.h) within [from, to]; for orbit_curves,
// every LP, PD and NS point of that branch continued in (parameter, second_parameter)
// (orbit_curve.h).
#pragma once

#include "engine/continuation/orbit_branch.h"
#include "engine/continuation/orbit_curve.h"
#include "engine/study/equilibrium_study.h"

#include <atomic>
#include <string>
#include <vector>

namespace bif::cont {

struct OrbitStudyOutcome {
    OrbitBranch branch;                     // both directions joined, the down part first
    std::vector<std::string> unknown_names; // the model's states, then "T" for an autonomous flow
    std::vector<std::string> notes;         // how the start was found and why the branch ended, in words
    // orbit_curves: one per LP, PD and NS point of the branch, both directions of the second
    // parameter joined (the down part first)
    struct Curve {
        std::string kind; // "LP", "PD" or "NS"
        OrbitCurve curve;
    };
    std::vector<Curve> curves;
};

// Throws std::invalid_argument where the model does not allow the orbit (a map with events, a flow
// with more states than the host integrator takes) and std::runtime_error when the start orbit is
// not found (the transient or Newton fails); the message says why.
OrbitStudyOutcome run_orbit_study(const study::ResolvedEquilibriumStudy& study,
                                  const std::atomic<bool>* cancel = nullptr);

} // namespace bif::cont
