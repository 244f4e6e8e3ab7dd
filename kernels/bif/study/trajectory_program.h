// One trajectory sampled at the requested times (View::times, increasing, the first >= t0) on the
// dense output of the accepted steps; the integration itself takes its own steps (rk4: the fixed
// step). Points row r: t_r, then each recorded observable at t_r. An event that stops the system
// ends the rows there (rows_filled tells how many). With Block::event_rows, each firing of an event
// in Block::output_events (XPPAUT's out_put) adds a row at its time, in time order among the others
// (one at a requested time comes after that time's row), as long as room for the requested rows
// still to come remains.
#pragma once

#include "bif/study/common.h"

namespace bif::ensemble {

template <class Model>
struct TrajectoryCarry {
    using real = typename Model::real;
    static constexpr int P = capacity(Model::num_param_slots);
    int phase; // first: see resume_carry (bif/study/common.h)
    real p[P];
    SystemState<Model> s;
    long long steps_used;
    int next_output; // the next requested time
    int next_row;
};

template <class Model>
struct TrajectoryObserver {
    using real = typename Model::real;
    static constexpr int O = capacity(Model::num_observables);
    const Model& m;
    const Block<Model>& b;
    const View<real>& v;
    index_t system;
    int& next;
    int& row;

    BIF_HD void write_row(real t, const real* y, const real* p) {
        real o[O] = {};
        m.observables(t, y, p, o);
        v.point(system, row, 0) = t;
        for (int j = 0; j < b.record_count; ++j)
            v.point(system, row, 1 + j) = pick(o, b.record_observable[j], O);
        ++row;
    }

    BIF_HD void write(real t, const real* y, const real* p) {
        write_row(t, y, p);
        ++next;
    }

    template <class StepView>
    BIF_HD void on_step(const StepView& s) {
        real y[Model::num_states];
        while (next < b.output_count && v.times[next] <= s.t1) {
            const real t = v.times[next];
            if (t >= s.t1) {
                write(t, s.y1, s.p);
                continue;
            }
            s.state_at(t, y);
            write(t, y, s.p);
        }
    }

    template <class Hit>
    BIF_HD void on_event(const Hit& h) {
        if (h.index >= 32 || !((b.output_events >> h.index) & 1u)) return;
        if (row - next >= b.event_rows) return; // the requested rows to come keep their room
        write_row(h.t, ((b.output_after_resets >> h.index) & 1u) ? h.y_after : h.y_before, h.p);
    }
};

template <class Model, class Method>
BIF_HD bool advance_trajectory(const Model& m, const Block<Model>& b, const View<typename Model::real>& v,
                               index_t system, long long slice, long long calls = 1) {
    using real = typename Model::real;
    TrajectoryCarry<Model> c{};
    if (resume_carry(v, system, c) == phase_done) return true;
    TrajectoryObserver<Model> obs{m, b, v, system, c.next_output, c.next_row};
    bool done = false;
    if (c.phase == phase_new) {
        real y0[Model::num_states];
        system_inputs(m, b, v, system, c.p, y0);
        c.s = make_state<Model>(b.t0, y0, m.dimension());
        c.steps_used = 0;
        c.next_output = 0;
        c.next_row = 0;
        c.phase = phase_running;
        while (c.next_output < b.output_count && v.times[c.next_output] <= b.t0)
            obs.write(v.times[c.next_output], y0, c.p);
    }
    if (c.next_output >= b.output_count) {
        c.phase = phase_done;
        v.status[system] = outcome_ok;
        done = true;
    }
    for (long long call = 0; !done && call < calls; ++call) {
        typename Method::template stepper<Model> st;
        StepBudget budget{slice, c.steps_used, b.max_steps};
        const Status r = integrate_within(m, st, c.s, c.p, b.parameters, v.times[b.output_count - 1],
                                          b.solver, b.events, obs, budget);
        c.steps_used = budget.used;
        if (!(r == Status::StepBudgetSpent && !budget.run_spent())) {
            // the last output lies at the end time, where the last step ends exactly
            if (r == Status::Ok && c.next_output < b.output_count) obs.write(c.s.t, c.s.y, c.p);
            c.phase = phase_done;
            v.status[system] = r == Status::Ok ? outcome_ok : outcome_of(r);
            done = true;
        }
    }
    if (done) v.rows_filled[system] = c.next_row;
    if (done && v.final_state)
        for (int i = 0; i < m.dimension(); ++i)
            v.final_state[index_t(i) * v.stride + system] = c.s.y[i];
    suspend_carry(v, system, c);
    return done;
}

} // namespace bif::ensemble
