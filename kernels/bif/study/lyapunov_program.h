// Lyapunov exponents of the flow (Benettin et al. 1980; Shimada & Nagashima 1979): the model alone
// through transient_time, then with K tangent vectors v_k' = J(t, y) v_k, J the symbolic Jacobian,
// re-orthonormalised by modified Gram-Schmidt every renormalization_interval (bif/lyapunov.h):
//   lambda_k = sum of log r_kk / averaged time,
// per unit time of the flow. For a forced system whose section is its forcing period T, the
// exponent of the stroboscopic map is T * lambda. K = 1 gives the largest exponent, K = N the
// spectrum, largest first. Events with resets map the tangent vectors by the saltation matrix
// (bif/lyapunov.h), so impacting systems get the exponents of the non-smooth flow.
//
// Convergence: the running estimate is compared with a checkpoint taken at most 90% of the time
// averaged so far (checkpoints move forward geometrically), so `change` is how much the estimate
// moved over at least the last tenth of the averaging. With convergence_tolerance > 0 the averaging
// stops once every exponent moved by less than it.
// Scalars: 0..K-1 the exponents, K the averaged time, K+1 the change (K = N for the spectrum).
#pragma once

#include "bif/study/common.h"

namespace bif::ensemble {

template <class Model, int K>
struct LyapunovCarry {
    using TM = TangentModel<Model, K>;
    using real = typename Model::real;
    static constexpr int P = capacity(Model::num_param_slots);

    int phase; // first: see resume_carry (bif/study/common.h)
    real p[P];
    SystemState<Model> base; // during the transient
    SystemState<TM> s;       // while averaging
    LyapunovSums<K, real> sums;
    real checkpoint[K]; // the estimate at checkpoint_time
    real checkpoint_time;
    real change;
    real averaging_start;
    long long steps_used;
    int renorms;
    int averaging; // 0: transient, 1: averaging
    int compared;  // the change has been measured at least once
};

template <class Model, class Method, int K>
struct LyapunovProgram {
    using real = typename Model::real;
    using TM = TangentModel<Model, K>;
    using Carry = LyapunovCarry<Model, K>;

    const Model& m;
    const TM tm;
    const Block<Model>& b;
    const View<real>& v;
    index_t system;
    Carry& c;

    BIF_HD BIF_COLD void finish(int outcome) {
        c.phase = phase_done;
        v.status[system] = outcome;
        const int n = m.dimension();
        // an adapter's capacity K may exceed its run-time size n: n exponents, then the two columns
        const int exponents = K < n ? K : n;
        if (c.sums.elapsed > real(0)) {
            for (int k = 0; k < exponents; ++k)
                v.scalar(system, k) = c.sums.sum[k] / c.sums.elapsed;
            v.scalar(system, exponents) = c.sums.elapsed;
            if (c.compared) v.scalar(system, exponents + 1) = c.change;
        }
        if (v.final_state)
            for (int i = 0; i < n; ++i)
                v.final_state[index_t(i) * v.stride + system] = c.averaging ? c.s.y[i] : c.base.y[i];
    }

    BIF_HD BIF_COLD bool start() {
        real y0[Model::num_states];
        system_inputs(m, b, v, system, c.p, y0);
        c.base = make_state<Model>(b.t0, y0, m.dimension());
        c.sums = LyapunovSums<K, real>{};
        c.checkpoint_time = real(0);
        c.change = real(0);
        c.steps_used = 0;
        c.renorms = 0;
        c.averaging = 0;
        c.compared = 0;
        c.phase = phase_running;
        if (!all_finite(y0, m.dimension()) || !(b.renormalization_interval > real(0)) ||
            !(b.averaging_time > real(0))) {
            finish(outcome_invalid_setup);
            return false;
        }
        return true;
    }

    // The tangent system starts where the transient ended, vectors e_k, the step size carried on.
    BIF_HD BIF_COLD void begin_averaging() {
        const int n = m.dimension();
        c.s = make_state<TM>(c.base.t, c.base.y, n);
        c.s.h = c.base.h;
        for (int k = 0; k < m.event_count(); ++k)
            c.s.event_count[k] = c.base.event_count[k];
        lyapunov_start(tm, c.s.y);
        c.averaging_start = c.s.t;
        c.averaging = 1;
    }

    // After the renormalisation at the end of interval c.renorms: the convergence bookkeeping.
    BIF_HD BIF_COLD bool converged() {
        const real now = c.sums.elapsed;
        if (!(c.checkpoint_time <= real(0.9) * now)) return false;
        real largest = real(0);
        for (int k = 0; k < K && k < m.dimension(); ++k) {
            const real estimate = c.sums.sum[k] / now;
            if (c.checkpoint_time > real(0)) largest = max_of(largest, abs_of(estimate - c.checkpoint[k]));
            c.checkpoint[k] = estimate;
        }
        const bool measured = c.checkpoint_time > real(0);
        c.checkpoint_time = now;
        if (!measured) return false;
        c.change = largest;
        c.compared = 1;
        return b.convergence_tolerance > real(0) && largest < b.convergence_tolerance;
    }

    BIF_HD bool run_transient(StepBudget& budget) {
        using Stepper = typename Method::template stepper<Model>;
        Stepper st;
        NoObserver obs;
        const real t_end = b.t0 + b.transient_time;
        const Status r =
            integrate_within(m, st, c.base, c.p, b.parameters, t_end, b.solver, b.events, obs, budget);
        if (r == Status::StepBudgetSpent && !budget.run_spent()) return false;
        if (r != Status::Ok) {
            finish(outcome_of(r));
            return true;
        }
        begin_averaging();
        return false;
    }

    BIF_HD bool run_averaging(StepBudget& budget) {
        using Stepper = typename Method::template stepper<TM>;
        Stepper st;
        SolverSettings<real, TM::num_states> widened;
        const SolverSettings<real, TM::num_states>& set =
            settings_for(b.solver, m.dimension(), tm.dimension(), widened);
        NoObserver obs;
        const real t_stop = c.averaging_start + b.averaging_time;
        for (;;) {
            const real t_end =
                min_of(c.averaging_start + real(c.renorms + 1) * b.renormalization_interval, t_stop);
            const Status r =
                integrate_within(tm, st, c.s, c.p, b.parameters, t_end, set, b.events, obs, budget);
            if (r == Status::StepBudgetSpent && !budget.run_spent()) return false;
            if (r != Status::Ok) {
                finish(outcome_of(r));
                return true;
            }
            LyapunovSums<K, real> step;
            lyapunov_renormalise(
                tm, c.s.y, c.s.t - (c.averaging_start + real(c.renorms) * b.renormalization_interval), step);
            for (int k = 0; k < K; ++k)
                c.sums.sum[k] += step.sum[k];
            c.sums.elapsed = c.s.t - c.averaging_start;
            ++c.renorms;
            state_changed(c.s, st);
            if (converged() || !(c.s.t < t_stop)) {
                finish(outcome_ok);
                return true;
            }
        }
    }

    BIF_HD bool run(long long slice) {
        StepBudget budget{slice, c.steps_used, b.max_steps};
        bool done = false;
        if (!c.averaging) {
            if (b.transient_time > real(0) && c.base.t < b.t0 + b.transient_time)
                done = run_transient(budget);
            else
                begin_averaging();
        }
        if (!done && c.averaging) done = run_averaging(budget);
        c.steps_used = budget.used;
        return done;
    }
};

template <class Model, class Method, int K>
BIF_HD bool advance_lyapunov(const Model& m, const Block<Model>& b, const View<typename Model::real>& v,
                             index_t system, long long slice, long long calls = 1) {
    using Program = LyapunovProgram<Model, Method, K>;
    typename Program::Carry c{};
    if (resume_carry<cold_carry_in_memory>(v, system, c) == phase_done) return true;
    Program program{m, typename Program::TM{m}, b, v, system, c};
    bool done = c.phase == phase_new && !program.start();
    for (long long call = 0; !done && call < calls; ++call)
        done = program.run(slice);
    suspend_carry<cold_carry_in_memory>(v, system, c);
    return done;
}

} // namespace bif::ensemble
