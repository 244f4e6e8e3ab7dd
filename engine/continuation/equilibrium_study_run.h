// Runs an equilibrium study (engine/study/equilibrium_study.h) on the CPU: the equilibria in the box,
// or the branches through them (or through the given start state) in the continued parameter, and
// for curves the fold and Hopf points of those branches continued in two parameters.
#pragma once

#include "engine/continuation/bifurcation_curve.h"
#include "engine/continuation/equilibrium_branch.h"
#include "engine/continuation/equilibrium_finder.h"
#include "engine/study/equilibrium_study.h"

#include <atomic>
#include <string>
#include <vector>

namespace bif::cont {

struct EquilibriumStudyOutcome {
    std::vector<Equilibrium> equilibria;     // the search's result (continuation: the branches' starts)
    std::vector<EquilibriumBranch> branches; // continuation: one per start, both directions joined
    // Curves: one per distinct LP or H point of the branches, both directions of the second
    // parameter joined.
    struct Curve {
        std::string kind; // "LP" or "H"
        BifurcationCurve curve;
    };
    std::vector<Curve> curves;
    std::vector<std::string> notes; // why each branch ended, in words
};

// Throws std::invalid_argument where the model does not allow it (a non-autonomous flow).
EquilibriumStudyOutcome run_equilibrium_study(const study::ResolvedEquilibriumStudy& study,
                                              const std::atomic<bool>* cancel = nullptr);

} // namespace bif::cont
