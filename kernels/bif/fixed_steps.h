// Fixed-step integration of a model without events, for the integration driver (bif/integrate.h):
// the plan of an interval's steps (a step count known before the loop), run unchecked and unrolled
// where the method allows, rerun checked from the unchanged start where it must.
#pragma once

#include "bif/bound_checks.h"
#include "bif/events.h"
#include "bif/kernel_support.h"
#include "bif/solver_settings.h"
#include "bif/system_state.h"

namespace bif::detail {

// Fixed-step integration (a method without an error estimate, or settings.adaptive == false) of a
// model without events. Every step has the size h = min(s.h, max_step) except the last, which ends
// exactly at t_end and is at most 1.01 h long (a sliver is folded into it); step j starts at
// t + (j h - t_low), one rounding instead of a running sum, and the step count is an integer known
// before the loop, so the loop tests neither the time nor the step size.
struct FixedPlan {
    int full;  // steps of size h
    bool ends; // a last step to t_end follows them within the step budget
};

template <class Real>
BIF_HD FixedPlan plan_fixed_steps(Real t, Real t_end, Real h, int budget) {
    const Real ratio = (t_end - t) / h; // may be huge (open-ended intervals) or infinite
    if (!(ratio - Real(1.01) < Real(budget))) return FixedPlan{budget, false};
    const int full = ratio > Real(1.01) ? int(m::ceil(ratio - Real(1.01))) : 0;
    if (full >= budget) return FixedPlan{budget, false};
    return FixedPlan{full, true};
}

// One run of the plan. Checked: every step's result is tested for finiteness and the run stops
// at the first that is not (the state stays at the last finite point), or at the first beyond
// the bound (the state is that step's end). Unchecked (a method whose
// step has no error estimate): no test inside the loop, and the state is written back only when
// the end state is finite; a non-finite component cannot become finite again (y + h (...) keeps a
// NaN or an infinity), so a finite end state means every step was finite, and the caller repeats a
// non-finite run checked, from the unchanged start, to find where it failed.
// A stepper that caches fractions of its step size (Rk4: h / 2, h / 6) is told the fixed step once,
// before the loop, with the settings that may hold those fractions already, so that the loop
// neither tests the cache nor computes them.
template <class Stepper, class Settings>
BIF_HD auto prepare_fixed_step(Stepper& st, typename Stepper::real h, const Settings& set, int)
    -> decltype(st.prepare_fixed_step(h, set)) {
    st.prepare_fixed_step(h, set);
}
template <class Stepper, class Settings>
BIF_HD void prepare_fixed_step(Stepper&, typename Stepper::real, const Settings&, long) {}

// Steps per iteration of the hot fixed-step loop (a tuning switch): 8 measured best on an H200
// (Lorenz RK4 float 1.650 ms against 1.727 at 4, double 2.966 against 2.980; tests/bench/README.md).
// Only that loop is unrolled (the unchecked run of a method without an error estimate, with the
// settings' own step): every copy of a step is compiled, and unrolling the rare paths too made a
// cold NVRTC compile of a small model 6-9 s instead of 1-4.
#ifndef BIF_FIXED_STEP_UNROLL
#define BIF_FIXED_STEP_UNROLL 8
#endif
template <bool Checked, int Unroll, bool Bounded = true, class Model, class Stepper, class Observer>
BIF_HD Status run_fixed_plan(const Model& m, Stepper& stepper, SystemState<Model>& s,
                             typename Model::real* p_out, typename Model::real t_end, typename Model::real h,
                             FixedPlan plan,
                             const SolverSettings<typename Model::real, Model::num_states>& set,
                             Observer& obs) {
    using real = typename Model::real;
    constexpr int N = Model::num_states;
    const int n = m.dimension();
    Stepper st = stepper;
    real p[capacity(Model::num_param_slots)];
    copy_n(p_out, m.param_slot_count(), p);
    real y[N];
    copy_n(s.y, n, y);
    const real t = s.t, t_low = s.t_low;
    real y_new[N];
    int done = 0;
    Status status = Status::Ok;
    [[maybe_unused]] bool outside = false; // unchecked: some step ended beyond the bound
    prepare_fixed_step(st, h, set, 0);
    BIF_UNROLL_IF(Unroll)
    for (; done < plan.full; ++done) {
        const real t_step = t + (real(done) * h - t_low);
        real h_step = h;
        const real err = st.attempt(m, t_step, y, p, h_step, y_new, set);
        if constexpr (Checked) {
            if (!step_is_finite(err, y_new, n)) {
                status = Status::NonFinite;
                break;
            }
        }
        const real t_next = t + (real(done + 1) * h - t_low);
        st.accept(m, t_step, y, p, h, y_new);
        obs.on_step(
            StepView<Model, Stepper>{m, st, p, t_step, h, y, y_new, t_next, t_step, t_next, y, y_new});
        copy_n(y_new, n, y);
        st.advance(n);
        if constexpr (Checked) {
            if (beyond_bound(set, y, n)) {
                ++done;
                status = Status::Escaped;
                break;
            }
        } else if constexpr (Bounded) {
            outside |= beyond_bound_flag(set, y, n);
        }
    }
    real t_now = t + (real(done) * h - t_low);
    real t_low_now = (t_now - t) - (real(done) * h - t_low);
    if (status == Status::Ok && plan.ends) {
        real h_last = t_end - t_now;
        const real err = st.attempt(m, t_now, y, p, h_last, y_new, set);
        if (step_is_finite(err, y_new, n)) {
            st.accept(m, t_now, y, p, h_last, y_new);
            obs.on_step(
                StepView<Model, Stepper>{m, st, p, t_now, h_last, y, y_new, t_end, t_now, t_end, y, y_new});
            copy_n(y_new, n, y);
            st.advance(n);
            ++done;
            t_now = t_end;
            t_low_now = real(0);
            if (beyond_bound(set, y, n)) status = Status::Escaped;
        } else {
            status = Status::NonFinite;
        }
    } else if (status == Status::Ok) {
        status = Status::StepBudgetSpent;
    }
    if constexpr (!Checked) {
        // s untouched: the caller repeats the run checked, which finds the step that failed or left
        if (!all_finite(y, n) || outside) return Status::NonFinite;
    }
    stepper = st;
    copy_n(p, m.param_slot_count(), p_out);
    copy_n(y, n, s.y);
    s.t = t_now;
    s.t_low = t_low_now;
    s.h = h;
    s.accepted += (unsigned long long)done;
    s.status = status;
    return status;
}

// The plan of steps of size h toward t_end, run unchecked first where the method allows (the hot
// loop, unrolled by `Unroll`); the checked rerun is not unrolled.
template <int Unroll, class Model, class Stepper, class Observer>
BIF_HD Status run_fixed_steps(const Model& m, Stepper& stepper, SystemState<Model>& s,
                              typename Model::real* p, typename Model::real t_end, typename Model::real h,
                              const SolverSettings<typename Model::real, Model::num_states>& set,
                              int max_attempts, Observer& obs) {
    const FixedPlan plan = plan_fixed_steps(s.t, t_end, h, max_attempts);
    // a state may leave the bound's box and come back within the plan: the unchecked run notes
    // every step's end, and one that left is run again checked; an observer would see the steps of
    // both runs, so with one and a bound the plan runs checked only
    constexpr bool observed = !detail::is_no_observer<Observer>::value;
    if constexpr (Stepper::error_order == 0) {
        const bool bounded =
            BIF_ENSEMBLE_BOUNDED == 2 ? set.bound > typename Model::real(0) : BIF_ENSEMBLE_BOUNDED == 1;
        if (observed && bounded) return run_fixed_plan<true, 1>(m, stepper, s, p, t_end, h, plan, set, obs);
        // without a bound the loop of old, with no compares at all: they cost Lorenz RK4 12-16% on an
        // H100 (tests/bench/README.md)
        Status fast;
        if constexpr (BIF_ENSEMBLE_BOUNDED == 0)
            fast = run_fixed_plan<false, Unroll, false>(m, stepper, s, p, t_end, h, plan, set, obs);
        else if constexpr (BIF_ENSEMBLE_BOUNDED == 1)
            fast = run_fixed_plan<false, Unroll, true>(m, stepper, s, p, t_end, h, plan, set, obs);
        else
            fast = bounded ? run_fixed_plan<false, Unroll, true>(m, stepper, s, p, t_end, h, plan, set, obs)
                           : run_fixed_plan<false, Unroll, false>(m, stepper, s, p, t_end, h, plan, set, obs);
        if (fast != Status::NonFinite) return fast;
    }
    return run_fixed_plan<true, 1>(m, stepper, s, p, t_end, h, plan, set, obs);
}

template <class Model, class Stepper, class Observer>
BIF_HD Status fixed_steps_without_events(const Model& m, Stepper& stepper, SystemState<Model>& s,
                                         typename Model::real* p, typename Model::real t_end,
                                         const SolverSettings<typename Model::real, Model::num_states>& set,
                                         int max_attempts,
                                         const EventSettings<typename Model::real, Model::num_events>& ev,
                                         Observer& obs) {
    using real = typename Model::real;
    const real h = set.max_step > real(0) ? min_of(s.h, set.max_step) : s.h;
    if (ev.equilibrium_steps > 0) s.zone_steps = 0;
    // The settings' own fixed step (set.fixed_step, fill_fixed_step) is every system's unless a
    // system chose its own (no initial step given: estimated per system). Passed on as read from the
    // settings, rather than as the equal carried s.h, the loop's step and its fractions (the
    // stepper's prepare_fixed_step) are loads from the settings: in constant memory on a GPU,
    // warp-uniform operands of every step.
    constexpr int unroll = Stepper::error_order == 0 ? BIF_FIXED_STEP_UNROLL : 1;
    if (set.fixed_step > real(0) && h == set.fixed_step)
        return run_fixed_steps<unroll>(m, stepper, s, p, t_end, set.fixed_step, set, max_attempts, obs);
    return run_fixed_steps<1>(m, stepper, s, p, t_end, h, set, max_attempts, obs);
}

} // namespace bif::detail
