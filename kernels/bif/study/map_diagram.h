// A map's orbit diagram in one pass per system: the section program's own fast loop
// (bounded_map_iterates and recorded_iterates, bif/study/section_program.h) from the initial state
// to the last recorded row, with nothing around it but the state in registers. It takes a system
// only where that loop is all the section program would run: a bifurcation study of a map sectioned
// at every iterate (period 1) with no tangent vector, no events, no extremes and no accessories. Its
// rows, status, rows filled and final state are then those of advance_sections bit for bit. A
// system it cannot finish so (a period other than 1, an initial state the section program rejects,
// an iterate that leaves the bound or is not finite, more iterates than `most`) it leaves new, for
// advance_sections to run from the start: the rows it wrote up to there are the ones that run
// writes again.
//
// Why a pass of its own: advance_sections holds the whole section carry live around the loop (72
// registers on an H100, against the hand-written logistic kernel's 16, and the occupancy that goes
// with them), so the CUDA backend runs this pass as a kernel of its own before the general one
// (bif/cuda/ensemble_kernel.cuh); the CPU calls it from advance_program.
#pragma once

#include "bif/study/section_program.h"

namespace bif::ensemble {

// Iterates per system the pass takes in one call at least, whatever the call's step budget: the
// whole diagram in one launch unless it is long (a budget exists to keep launches short).
inline constexpr long long map_diagram_iterates = 1LL << 16;

// Whether the model and method can take the pass at all (known at compile time).
template <class Model, class Method>
BIF_HD constexpr bool map_diagram_compiles() {
    return detail::steps_iterates<typename Method::template stepper<Model>>::value && Model::num_events == 0;
}

// Whether the study lets it take its systems (the same for every system).
template <class Model>
BIF_HD bool map_diagram_applies(const Block<Model>& b) {
    return b.analysis == analysis_bifurcation && b.section_kind == section_stroboscopic &&
           !b.record_extrema && !b.step_accessories && b.accessory_count == 0 && b.record_count >= 1 &&
           b.transient_sections >= 0 && b.recorded_sections >= 1 &&
           (long long)b.transient_sections + b.recorded_sections <= b.max_steps;
}

// Runs system `system` through its diagram when it is new and the pass can finish it; true once
// its outputs are written.
template <class Model>
BIF_HD bool map_diagram_system(const Model& m, const Block<Model>& b, const View<typename Model::real>& v,
                               index_t system, long long most) {
    using real = typename Model::real;
    constexpr int O = capacity(Model::num_observables);
    constexpr int P = capacity(Model::num_param_slots);
    if (v.status[system] != outcome_not_run || v.carry[system] != (unsigned int)phase_new) return false;
    if ((long long)b.transient_sections + b.recorded_sections > most) return false;
    const int n = m.dimension();
    real p[P], y[Model::num_states];
    system_inputs(m, b, v, system, p, y);
    // the section program's start: the period observable at the initial state, which must be 1 for
    // every iterate to be a section point
    real o[O] = {};
    m.observables(b.t0, y, p, o);
    if (!(pick(o, b.period_observable, O) == real(1)) || !all_finite(y, n) ||
        detail::beyond_bound(b.solver, y, n))
        return false;
    real p_run[P];
    parameters_for_run(m, b.parameters, p, p_run);
    const MapIterates<Model> it = bounded_map_iterates(m, b, p_run);
    if (it.unrecorded(y, 0, b.transient_sections) < b.transient_sections ||
        recorded_iterates(it, m, p, b, v, system, 0, b.transient_sections, y, b.recorded_sections) <
            b.recorded_sections)
        return false;
    v.status[system] = outcome_ok;
    v.rows_filled[system] = b.recorded_sections;
    if (v.final_state)
        for (int i = 0; i < n; ++i)
            v.final_state[index_t(i) * v.stride + system] = y[i];
    v.carry[system] = (unsigned int)phase_done;
    return true;
}

} // namespace bif::ensemble
