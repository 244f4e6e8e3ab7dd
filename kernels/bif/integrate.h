// The per-system integration driver, the same code for the CPU backend (a loop over systems) and
// the CUDA kernel (one thread per system, the whole run inside one kernel):
//
//   SystemState<M> s = make_state<M>(t0, y0, m.dimension());   // once per system
//   Dopri5<M> stepper;                                 // per system, kept while the system runs
//   for each recording interval [.., t_k]:
//       integrate(m, stepper, s, p, t_k, settings, events, observer);
//       record s.y / accessories; stop when is_final(s.status)
//
// The adaptive step size, the controller memory and the event values are carried in s, so a new
// interval neither restarts the step-size ramp nor misses a crossing at its boundary. A failed
// system keeps a final status and stays at its last accepted point; nothing else is touched.
//
// Events: every accepted step is searched for crossings, at its ends and at BIF_EVENT_SAMPLES
// interior points of its dense output, so that a pair of crossings inside one step is seen too; the
// earliest is located on the dense output (bif/events.h), the observer sees the step up to it,
// then its resets are applied (m.apply_reset). A reset that changes y or p ends the step there and
// integration restarts from the event point; otherwise the rest of the same step is searched for
// later crossings, so several crossings within one step are handled in time order.
//
// Observer (a struct, no std::function):
//   template <class View> BIF_HD void on_step(const View& v);  // each accepted step, or its part
//       between events: v.t0, v.t1, v.y0, v.y1, v.p and v.state_at(t, out) for t in [t0, t1]
//   template <class Hit> BIF_HD void on_event(const Hit& e);   // e.index, e.count, e.t,
//       e.y_before (state at the crossing), e.y_after (after the resets), e.p (after the resets)
#pragma once

#include "bif/bound_checks.h"
#include "bif/controlled_step.h"
#include "bif/events.h"
#include "bif/fixed_steps.h"
#include "bif/kernel_support.h"
#include "bif/solver_settings.h"
#include "bif/status.h"
#include "bif/step_events.h"
#include "bif/step_size.h"
#include "bif/system_state.h"

namespace bif {

namespace detail {

// What integrate_begin finds missing at the start of an interval: the stepper's first derivatives,
// the event values, the step size.
template <class Model, class Stepper>
BIF_HD BIF_RARE Status start_steps(const Model& m, Stepper& st, SystemState<Model>& s,
                                   const typename Model::real* p, typename Model::real t_end,
                                   const SolverSettings<typename Model::real, Model::num_states>& set) {
    using real = typename Model::real;
    if (!st.ready && !st.start(m, s.t, s.y, p)) return finish(s, Status::NonFinite);
    if (!s.events_ready) {
        m.events(s.t, s.y, p, s.g);
        s.g_ahead = real(0);
        s.events_ready = true;
    }
    if (!(s.h > real(0)))
        s.h = set.initial_step > real(0)
                  ? set.initial_step
                  : starting_step(m, s.t, s.y, p, st.f0, Stepper::order, t_end - s.t, set);
    return Status::Running;
}

} // namespace detail

// The first part of integrate(): derivatives, event values and the step size where they are not
// known yet. Returns Status::Running when the steps may follow (integrate_steps), otherwise the
// status the call ends with.
template <class Model, class Stepper>
BIF_HD Status integrate_begin(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real* p,
                              typename Model::real t_end,
                              const SolverSettings<typename Model::real, Model::num_states>& set) {
    using real = typename Model::real;
    if (is_final(s.status)) return s.status;
    if (detail::beyond_bound(set, s.y, m.dimension())) return detail::finish(s, Status::Escaped);
    s.status = Status::Running;
    if (st.ready && s.events_ready && s.h > real(0)) return Status::Running;
    if constexpr (rare_paths_outlined) {
        SystemState<Model> s_c = s;
        Stepper st_c = st;
        real p_c[capacity(Model::num_param_slots)];
        copy_n(p, m.param_slot_count(), p_c);
        const SolverSettings<real, Model::num_states> set_c = set;
        const Status r = detail::start_steps(m, st_c, s_c, p_c, t_end, set_c);
        s = s_c;
        st = st_c;
        return r;
    } else {
        return detail::start_steps(m, st, s, p, t_end, set);
    }
}

namespace detail {

// integrate_steps for a model without events: the same steps, the same arithmetic and the same
// final state, on local copies of only what a step reads or changes (time, step size, state,
// parameters, counters, controller memory, stepper), so that a GPU keeps the loop in registers. With
// no events, process_step reduces to the observer's on_step and settled_in_event_zone to resetting
// the zone count.
template <class Model, class Stepper, class Observer>
BIF_HD Status steps_without_events(const Model& m, Stepper& stepper, SystemState<Model>& s,
                                   typename Model::real* p_out, typename Model::real t_end,
                                   const SolverSettings<typename Model::real, Model::num_states>& settings,
                                   int max_attempts,
                                   const EventSettings<typename Model::real, Model::num_events>& ev,
                                   Observer& obs) {
    using real = typename Model::real;
    constexpr int N = Model::num_states;
    const int n = m.dimension();
    // in registers: read through the reference at every step, the controller's chain of dependent
    // operations waits on the loads (measured on an H200: 270 ms against 262 ms for Duffing RKCK45)
    const SolverSettings<real, N> set = settings;
    Stepper st = stepper;
    real p[capacity(Model::num_param_slots)];
    copy_n(p_out, m.param_slot_count(), p);
    real y[N];
    copy_n(s.y, n, y);
    real t = s.t, t_low = s.t_low, h_carry = s.h;
    StepController<real> control = s.control;
    Status status = Status::Ok;
    real y_new[N];
    // 32-bit counts within the call (the budget is an int), added to the carried 64-bit ones once
    int attempts = 0, accepted = 0;
    for (; t < t_end; ++attempts) {
        if (attempts >= max_attempts) {
            status = Status::StepBudgetSpent;
            break;
        }
        real h = set.max_step > real(0) ? min_of(h_carry, set.max_step) : h_carry;
        const bool last = t + real(1.01) * h >= t_end;
        if (last) h = t_end - t;
        const real h_asked = h;
        real h_next = h;
        const StepVerdict verdict = controlled_step(st, control, m, t, y, p, h, h_next, y_new, set);
        if (verdict == StepVerdict::Rejected) {
            h_carry = h_next;
            continue;
        }
        if (verdict == StepVerdict::Underflow) {
            status = Status::StepUnderflow;
            break;
        }
        if (verdict == StepVerdict::NonFinite) {
            status = Status::NonFinite;
            break;
        }
        ++accepted;
        const bool reached_end = last && h == h_asked;
        const real h_comp = h - t_low;
        const real t_new = reached_end ? t_end : t + h_comp;
        const real t_low_new = reached_end ? real(0) : (t_new - t) - h_comp;
        st.accept(m, t, y, p, h, y_new);
        obs.on_step(StepView<Model, Stepper>{m, st, p, t, h, y, y_new, t_new, t, t_new, y, y_new});
        h_carry = (reached_end && h_next >= h) ? max_of(h_next, h_carry) : h_next;
        t = t_new;
        t_low = t_low_new;
        copy_n(y_new, n, y);
        st.advance(n);
        if (beyond_bound(set, y, n)) {
            ++attempts; // an accepted attempt, counted as the loop's increment would
            status = Status::Escaped;
            break;
        }
    }
    stepper = st;
    copy_n(p, m.param_slot_count(), p_out);
    copy_n(y, n, s.y);
    s.t = t;
    s.t_low = t_low;
    s.h = h_carry;
    s.accepted += (unsigned long long)accepted;
    s.rejected += (unsigned long long)(attempts - accepted); // a failing attempt breaks before ++attempts
    s.control = control;
    if (accepted > 0 && ev.equilibrium_steps > 0) s.zone_steps = 0;
    s.status = status;
    return status;
}

} // namespace detail

namespace detail {

// Steppers that iterate a map (bif/steppers/iteration.h) declare `steps_iterates`: their events are
// tested at the iterates by iterate_with_events, defined there.
template <class S, class = void>
struct steps_iterates {
    static constexpr bool value = false;
};
template <class S>
struct steps_iterates<S, decltype(void(S::steps_iterates))> {
    static constexpr bool value = S::steps_iterates;
};
template <class Model, class Stepper, class Observer>
BIF_HD Status iterate_with_events(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real* p,
                                  typename Model::real t_end,
                                  const SolverSettings<typename Model::real, Model::num_states>& set,
                                  int max_attempts,
                                  const EventSettings<typename Model::real, Model::num_events>& ev,
                                  Observer& obs);

} // namespace detail

// The steps of integrate(), after integrate_begin returned Status::Running: at most max_attempts
// attempted steps (set.max_steps in integrate(); an ensemble program passes its slice budget, so
// that the settings themselves can stay shared and read-only).
template <class Model, class Stepper, class Observer>
BIF_HD Status integrate_steps(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real* p,
                              typename Model::real t_end,
                              const SolverSettings<typename Model::real, Model::num_states>& set,
                              int max_attempts,
                              const EventSettings<typename Model::real, Model::num_events>& ev,
                              Observer& obs) {
    if constexpr (Model::num_events == 0) {
        if (Stepper::error_order == 0 || !set.adaptive)
            return detail::fixed_steps_without_events(m, st, s, p, t_end, set, max_attempts, ev, obs);
        return detail::steps_without_events(m, st, s, p, t_end, set, max_attempts, ev, obs);
    }
    if constexpr (detail::steps_iterates<Stepper>::value)
        return detail::iterate_with_events(m, st, s, p, t_end, set, max_attempts, ev, obs);
    using real = typename Model::real;
    constexpr int N = Model::num_states;
    const int n = m.dimension();
    real y_new[N];
    real g_new[capacity(Model::num_events)];
    for (int attempts = 0; s.t < t_end; ++attempts) {
        if (attempts >= max_attempts) return detail::finish(s, Status::StepBudgetSpent);
        real h = set.max_step > real(0) ? min_of(s.h, set.max_step) : s.h;
        // the last step ends exactly at t_end (stretched by up to 1% rather than leaving a sliver)
        const bool last = s.t + real(1.01) * h >= t_end;
        if (last) h = t_end - s.t;
        const real h_asked = h;
        real h_next = h;
        const StepVerdict verdict = controlled_step(st, s.control, m, s.t, s.y, p, h, h_next, y_new, set);
        if (verdict == StepVerdict::Rejected) {
            ++s.rejected;
            s.h = h_next;
            continue;
        }
        if (verdict == StepVerdict::Underflow) return detail::finish(s, Status::StepUnderflow);
        if (verdict == StepVerdict::NonFinite) return detail::finish(s, Status::NonFinite);
        ++s.accepted;
        const bool reached_end = last && h == h_asked;
        // t_new = t + h with Kahan compensation: the rounding of each addition is carried in
        // t_low, so a float run keeps its time (and a forcing's phase) to ulp(t), not n ulp(t)
        const real h_comp = h - s.t_low;
        const real t_new = reached_end ? t_end : s.t + h_comp;
        const real t_low_new = reached_end ? real(0) : (t_new - s.t) - h_comp;
        st.accept(m, s.t, s.y, p, h, y_new);
        const detail::StepEnd end = detail::process_step(m, st, s, p, h, t_new, y_new, g_new, ev, obs);
        if (end == detail::StepEnd::Stopped) return s.status;
        // a step shortened to reach t_end does not shrink the size carried on
        s.h = (reached_end && h_next >= h) ? max_of(h_next, s.h) : h_next;
        if (end == detail::StepEnd::Continue) {
            s.t = t_new;
            s.t_low = t_low_new;
            copy_n(y_new, n, s.y);
            copy_n(g_new, m.event_count(), s.g);
            s.g_ahead = real(0);
            st.advance(n);
            const bool passed = detail::passed_through_rebound(m, s, g_new);
            s.rebound_event = -1;
            if (passed) return detail::finish(s, Status::EventsAccumulate);
        }
        if (detail::beyond_bound(set, s.y, n)) return detail::finish(s, Status::Escaped);
        if (detail::settled_in_event_zone(m, s, ev)) return detail::finish(s, Status::StoppedByEvent);
    }
    return detail::finish(s, Status::Ok);
}

// Integrates one system from s.t to t_end (t_end > s.t; nothing happens otherwise).
template <class Model, class Stepper, class Observer>
BIF_HD Status integrate(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real* p,
                        typename Model::real t_end,
                        const SolverSettings<typename Model::real, Model::num_states>& set,
                        const EventSettings<typename Model::real, Model::num_events>& ev, Observer& obs) {
    const Status begun = integrate_begin(m, st, s, p, t_end, set);
    if (begun != Status::Running) return begun;
    return integrate_steps(m, st, s, p, t_end, set, set.max_steps, ev, obs);
}

template <class Model, class Stepper>
BIF_HD Status integrate(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real* p,
                        typename Model::real t_end,
                        const SolverSettings<typename Model::real, Model::num_states>& set) {
    EventSettings<typename Model::real, Model::num_events> ev;
    NoObserver obs;
    return integrate(m, st, s, p, t_end, set, ev, obs);
}

} // namespace bif
