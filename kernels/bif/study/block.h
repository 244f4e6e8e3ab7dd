// The parameter block of one ensemble run for a concrete model: the StudySpec converted to the
// model's precision and array sizes. One copy per run, read by every system (a CUDA kernel takes it
// by value or from constant memory); trivially copyable, no pointers.
#pragma once

#include "bif/events.h"
#include "bif/kernel_support.h"
#include "bif/solver_settings.h"
#include "bif/study/spec.h"

namespace bif::ensemble {

template <class Model>
struct Block {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int P = capacity(Model::num_param_slots);
    static constexpr int E = Model::num_events;
    static constexpr int O = capacity(Model::num_observables);

    int analysis = analysis_bifurcation;
    SolverSettings<real, N> solver;
    EventSettings<real, E> events;
    long long max_steps = 0;

    real t0 = real(0);
    real parameters[P] = {};
    real initial[N] = {};
    int axis_count = 0;
    int axis_is_state[max_axes] = {};
    int axis_slot[max_axes] = {};

    int section_kind = section_none;
    int section_event = -1;
    int period_observable = -1;
    real max_time_between = real(0);
    int transient_sections = 0;
    int recorded_sections = 1;

    int record_count = 0;
    int record_observable[O] = {};
    int record_mode[O] = {};
    bool record_extrema = false; // some recorded quantity is a max or min between sections

    int lyapunov_spectrum = 0;
    real transient_time = real(0);
    real averaging_time = real(0);
    real renormalization_interval = real(0);
    real convergence_tolerance = real(0);

    int detect_period = 0;
    real period_tolerance = real(0);
    int max_period = 0;
    int map_exponent = 0;
    int accessory_count = 0;
    int accessory_observable[O] = {};
    int accessory_reduce[O] = {};
    int accessory_over[O] = {};
    bool step_accessories = false; // some accessory reduces over steps
    int model_event_count = 0;
    int count_events = 0;

    int output_count = 0;
    int event_rows = 0;
    unsigned output_events = 0;
    unsigned output_after_resets = 0;
};

// The block for `m` (its run-time sizes bound the copies). Observable lists longer than the
// model's observable capacity are cut (the host checks sizes before it gets here).
template <class Model>
BIF_HD Block<Model> make_block(const Model& m, const StudySpec& s) {
    using real = typename Model::real;
    Block<Model> b;
    const int n = m.dimension();
    b.analysis = s.analysis;
    BIF_STATE_LOOP
    for (int i = 0; i < n; ++i) {
        b.solver.rtol[i] = real(s.rtol[i]);
        b.solver.atol[i] = real(s.atol[i]);
        b.initial[i] = real(s.initial[i]);
    }
    b.solver.initial_step = real(s.initial_step);
    b.solver.min_step = real(s.min_step);
    b.solver.max_step = real(s.max_step);
    b.solver.max_growth = real(s.max_growth);
    b.solver.max_shrink = real(s.max_shrink);
    b.solver.adaptive = s.adaptive != 0;
    // a bound beyond float's range (3.4e38) cannot be exceeded by a finite float state: none
    b.solver.bound = sizeof(real) == 4 && !(s.bound < 3.4e38) ? real(0) : real(s.bound);
    fill_fixed_step(b.solver);
    b.max_steps = s.max_steps;
    b.t0 = real(s.t0);
    // user parameters only; derived slots are completed per system
    const int user_params = s.parameter_count < Block<Model>::P ? s.parameter_count : Block<Model>::P;
    for (int i = 0; i < user_params; ++i)
        b.parameters[i] = real(s.parameters[i]);
    b.axis_count = s.axis_count;
    for (int a = 0; a < max_axes; ++a) {
        b.axis_is_state[a] = s.axis_is_state[a];
        b.axis_slot[a] = s.axis_slot[a];
    }
    b.section_kind = s.section_kind;
    b.section_event = s.section_event;
    b.period_observable = s.period_observable;
    b.max_time_between = real(s.max_time_between);
    b.transient_sections = s.transient_sections;
    b.recorded_sections = s.recorded_sections;
    const int o_cap = Block<Model>::O;
    b.record_count = s.record_count < o_cap ? s.record_count : o_cap;
    for (int j = 0; j < b.record_count; ++j) {
        b.record_observable[j] = s.record_observable[j];
        b.record_mode[j] = s.record_mode[j];
    }
    b.record_extrema = records_extrema(s);
    b.lyapunov_spectrum = s.lyapunov_spectrum;
    b.transient_time = real(s.transient_time);
    b.averaging_time = real(s.averaging_time);
    b.renormalization_interval = real(s.renormalization_interval);
    b.convergence_tolerance = real(s.convergence_tolerance);
    b.detect_period = s.detect_period;
    b.period_tolerance = real(s.period_tolerance);
    b.max_period = s.max_period;
    b.map_exponent = s.map_exponent;
    b.accessory_count = s.accessory_count < o_cap ? s.accessory_count : o_cap;
    for (int j = 0; j < b.accessory_count; ++j) {
        b.accessory_observable[j] = s.accessory_observable[j];
        b.accessory_reduce[j] = s.accessory_reduce[j];
        b.accessory_over[j] = s.accessory_over[j];
    }
    b.step_accessories = has_step_accessories(s);
    b.model_event_count = s.model_event_count;
    b.count_events = s.count_events;
    b.output_count = s.output_count;
    b.event_rows = s.event_rows;
    b.output_events = s.output_events;
    b.output_after_resets = s.output_after_resets;
    return b;
}

} // namespace bif::ensemble
