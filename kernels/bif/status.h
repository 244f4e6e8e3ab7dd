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
    // An event's reset turned the motion back to the event's old side, yet the next step ended on
    // its new side with no crossing to locate: the state passed through the event's surface. The
    // crossings accumulate there (a Zeno point: a ball chattering to rest on a table), where the
    // model has no law left (a sticking phase) and following it would leave the surface behind.
    EventsAccumulate,
};

// Ok and Running may be continued by another call; the others are final.
BIF_HD constexpr bool is_final(Status s) {
    return s != Status::Ok && s != Status::Running;
}

} // namespace bif
