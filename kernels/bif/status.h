// Per-system outcome of an integration call. A system that fails keeps its own status and stops
// alone; it never aborts its neighbours (DiffEqGPU's kernels aborted a whole ensemble instead).
#pragma once

#include "bif/config.h"

namespace bif {

enum class Status : unsigned char {
    Ok = 0,          // reached the requested end time; may be continued
    StoppedByEvent,  // an event asked to stop (its stop count, the model's arret, or the equilibrium guard)
    StepBudgetSpent, // the step budget of one call ran out before the end time
    StepUnderflow,   // the step size fell below the minimum step
    NonFinite,       // NaN or infinity in the state or right-hand side that no step size could cure
    Escaped,         // a state component ended a step or iterate beyond SolverSettings::bound
    Running,         // inside integrate() only
};

// Ok and Running may be continued by another call; the others are final.
BIF_HD constexpr bool is_final(Status s) {
    return s != Status::Ok && s != Status::Running;
}

} // namespace bif
