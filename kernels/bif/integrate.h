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

#include "bif/controlled_step.h"
#include "bif/events.h"
#include "bif/kernel_support.h"
#include "bif/solver_settings.h"
#include "bif/status.h"
#include "bif/step_size.h"

namespace bif {

template <class Model>
struct SystemState {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int E = capacity(Model::num_events);

    real t = real(0);
    real t_low = real(0); // compensation of t (Kahan): t + h in float drifts by ulp(t)/2 per step
    real h = real(0);     // step size carried to the next step and the next call (0: estimate)
    real y[N] = {};
    real g[E] = {};          // event functions at (t + g_ahead, y) when events_ready
    real g_ahead = real(0);  // > 0 just after an event point: g is taken that far past it (look_past_event)
    int rebound_event = -1;  // the event whose reset at t turned the motion back to its old side
    int event_count[E] = {}; // crossings of each event since the state was made
    int zone_steps = 0;      // consecutive accepted steps ending inside an event zone
    int stop_event = -1;     // the event that stopped the system
    unsigned long long accepted = 0;
    unsigned long long rejected = 0;
    Status status = Status::Ok;
    bool events_ready = false;
    StepController<real> control;
};

template <class Model>
BIF_HD SystemState<Model> make_state(typename Model::real t0, const typename Model::real* y0, int n) {
    SystemState<Model> s;
    s.t = t0;
    copy_n(y0, n, s.y);
    return s;
}

// After the caller changed s.y or p between calls (a Lyapunov renormalisation, a new initial
// condition): derivatives and event values are recomputed at the next call.
template <class Model, class Stepper>
BIF_HD void state_changed(SystemState<Model>& s, Stepper& stepper) {
    s.events_ready = false;
    stepper.ready = false;
}

struct NoObserver {
    template <class View>
    BIF_HD void on_step(const View&) {}
    template <class Hit>
    BIF_HD void on_event(const Hit&) {}
};

// Whether the BIF_RARE paths are calls (bif/config.h). A call's pointer arguments put what they
// point at in local memory for the whole kernel, so the step loop's own state goes to a rare path
// as copies made on that path, and what it changed is copied back: the loop keeps its registers.
// Observers keep what they gather behind references, so the rare path may use a copy of one.
#if (defined(__CUDACC__) || defined(__CUDACC_RTC__)) && defined(BIF_OUTLINE_RARE)
inline constexpr bool rare_paths_outlined = true;
#else
inline constexpr bool rare_paths_outlined = false;
#endif

// One accepted step (or the part of it between two events) as observers see it.
template <class Model, class Stepper>
struct StepView {
    using real = typename Model::real;
    const Model& m;
    const Stepper& stepper;
    const real* p;
    real t_start, h; // the whole accepted step [t_start, t_start + h]
    const real* y_start;
    const real* y_end;
    real t_end;
    real t0, t1; // this part of it
    const real* y0;
    const real* y1;

    BIF_HD void state_at(real t, real* out) const {
        if (t >= t_end) {
            copy_n(y_end, m.dimension(), out);
            return;
        }
        // 1/h is the same at every state_at of one step: the compiler forms it once per step
        stepper.state_at((t - t_start) * (real(1) / h), h, y_start, y_end, m.dimension(), out);
    }
};

template <class Real>
struct EventHit {
    int index;
    int count;
    Real t;
    const Real* y_before;
    const Real* y_after;
    const Real* p;
};

namespace detail {

enum class StepEnd : unsigned char { Continue, Truncated, Stopped };

// Applies the resets of event k at (t, y) in place and tells the observer. Returns true when
// the system must stop; `changed` is set when y or p changed, fired[k] when it fired.
template <class Model, class Observer>
BIF_HD bool fire_event(const Model& m, SystemState<Model>& s, int k, typename Model::real t,
                       typename Model::real* y, typename Model::real* p, const int* stop_after, bool& changed,
                       bool* fired, Observer& obs) {
    using real = typename Model::real;
    const int n = m.dimension();
    const int np = m.param_slot_count();
    real y_before[Model::num_states];
    real p_before[capacity(Model::num_param_slots)];
    copy_n(y, n, y_before);
    copy_n(p, np, p_before);
    int count = 0;
    for (int i = 0; i < m.event_count(); ++i) {
        if (i != k) continue;
        count = ++s.event_count[i];
        fired[i] = true;
    }
    bool stop = m.apply_reset(k, t, y, p);
    for (int i = 0; i < n; ++i)
        changed = changed || !(y[i] == y_before[i]);
    for (int i = 0; i < np; ++i)
        changed = changed || !(p[i] == p_before[i]);
    obs.on_event(EventHit<real>{k, count, t, y_before, y, p});
    const int limit = pick(stop_after, k, m.event_count());
    stop = stop || (limit > 0 && count >= limit);
    if (stop) s.stop_event = k;
    return stop;
}

// The value an event that just fired should be compared with at the next step end. It sits on
// the new side within rounding, so a trajectory that turns back within one step (a bouncing ball
// after its reset) would show no sign change; as SUNDIALS' root finder does, take g a little
// later, at t + delta along the motion: delta = 100 eps (|t| + |h|).
template <class Model>
BIF_HD void look_past_event(const Model& m, typename Model::real t, typename Model::real h,
                            const typename Model::real* y_later, const typename Model::real* p,
                            const bool* fired, typename Model::real* g) {
    using real = typename Model::real;
    const real delta = real(100) * epsilon<real>() * (m::fabs(t) + m::fabs(h));
    real g_later[capacity(Model::num_events)];
    m.events(t + delta, y_later, p, g_later);
    for (int k = 0; k < m.event_count(); ++k)
        if (fired[k]) g[k] = g_later[k];
}

// The first event among `fired` (direction +1 or -1) whose reset turned the motion back to the
// event's old side: the crossing speed dg/dt = dg/dy . f + dg/dt after the reset (f = f(t, y) at the
// reset state) points away from its new side, as an impact's does. Its exact gradient resolves a
// speed far below what a difference of g values near the surface could (their rounding is that of
// g's terms). -1 for none, or for a model without event gradients.
template <class Model>
BIF_HD int rebound_event(const Model& m, typename Model::real t, const typename Model::real* y,
                         const typename Model::real* p, const typename Model::real* f, const bool* fired) {
    if constexpr (!ProvidesEventGradient<Model>) {
        return -1;
    } else {
        using real = typename Model::real;
        const int n = m.dimension();
        for (int k = 0; k < m.event_count(); ++k) {
            const int direction = m.event_direction(k);
            if (!fired[k] || (direction != 1 && direction != -1)) continue;
            real grad[Model::num_states + 1];
            m.event_gradient(k, t, y, p, grad);
            real speed = grad[n];
            for (int i = 0; i < n; ++i)
                speed += grad[i] * f[i];
            if (direction == -1 ? speed > real(0) : speed < real(0)) return k;
        }
        return -1;
    }
}

// Whether event k's surface, crossed at (t, y), was being left there: the crossing speed points to
// the event's old side. Right after k's reset turned the motion back (s.rebound_event), such a
// "crossing" is no motion through the surface but rounding: g within its evaluation's rounding of
// zero on both sides, the motion too slow to leave that band (a Zeno point's last impacts).
template <class Model>
BIF_HD bool leaving_surface(const Model& m, int k, typename Model::real t, const typename Model::real* y,
                            const typename Model::real* p) {
    if constexpr (!ProvidesEventGradient<Model>) {
        return false;
    } else {
        using real = typename Model::real;
        const int n = m.dimension();
        real grad[Model::num_states + 1], f[Model::num_states];
        m.event_gradient(k, t, y, p, grad);
        m.rhs(t, y, p, f);
        real speed = grad[n];
        for (int i = 0; i < n; ++i)
            speed += grad[i] * f[i];
        return m.event_direction(k) == -1 ? speed > real(0) : speed < real(0);
    }
}

// Whether a step that ended with event values g_new, the first since the reset of s.rebound_event,
// ended on that event's new side although no crossing was found in it: the state passed through the
// surface its reset had just turned it back from (Status::EventsAccumulate).
template <class Model>
BIF_HD bool passed_through_rebound(const Model& m, const SystemState<Model>& s,
                                   const typename Model::real* g_new) {
    using real = typename Model::real;
    if (s.rebound_event < 0) return false;
    const real g = pick(g_new, s.rebound_event, m.event_count());
    return m.event_direction(s.rebound_event) == -1 ? g <= real(0) : g >= real(0);
}

// Moves the system to (t, y) after an event ended the step there.
template <class Model, class Stepper>
BIF_HD StepEnd commit_event_point(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real t,
                                  typename Model::real h, const typename Model::real* y,
                                  typename Model::real* p, bool stop, const bool* fired) {
    using real = typename Model::real;
    const int n = m.dimension();
    s.t = t;
    s.t_low = real(0);
    copy_n(y, n, s.y);
    m.events(t, s.y, p, s.g);
    if (stop) {
        s.status = Status::StoppedByEvent;
        return StepEnd::Stopped;
    }
    if (!all_finite(s.y, n) || !st.start(m, s.t, s.y, p)) {
        s.status = Status::NonFinite;
        return StepEnd::Stopped;
    }
    // y + delta f(t, y), delta as in look_past_event
    real y_later[Model::num_states];
    const real delta = real(100) * epsilon<real>() * (m::fabs(t) + m::fabs(h));
    for (int i = 0; i < n; ++i)
        y_later[i] = s.y[i] + delta * st.f0[i];
    look_past_event(m, t, h, y_later, p, fired, s.g);
    s.g_ahead = delta;
    s.rebound_event = rebound_event(m, t, s.y, p, st.f0, fired);
    return StepEnd::Truncated;
}

// Event handling for the accepted step [s.t, t_new] from s.y to y_new. On Continue, g_new holds
// the event values at t_new; otherwise s has been moved to the event point. The step, and after an
// event that changed nothing the rest of it, is searched part by part (bracket_first_crossing):
// every event that crossed within the first part that shows a crossing is located there, each in
// the bracket left by the previous ones, so the earliest crossing ends the bracket.
// The crossings process_step found in the step (found: some part of it, [t_lo, t_hi], shows one;
// otherwise some sign-0 event is exactly 0 at its end), in time order: located, shown to the
// observer, fired. A function of its own under BIF_OUTLINE_RARE (bif/config.h).
template <class Model, class Stepper, class Observer>
BIF_HD BIF_RARE StepEnd process_crossings(const Model& m, Stepper& st, SystemState<Model>& s,
                                          typename Model::real* p, typename Model::real h,
                                          typename Model::real t_new, const typename Model::real* y_new,
                                          typename Model::real* g_new,
                                          const EventSettings<typename Model::real, Model::num_events>& ev,
                                          Observer& obs, bool found, typename Model::real t_lo,
                                          typename Model::real t_hi, typename Model::real* ga,
                                          typename Model::real* yb, typename Model::real* gb) {
    using real = typename Model::real;
    constexpr int N = Model::num_states;
    constexpr int E = capacity(Model::num_events);
    const int n = m.dimension();
    const int ne = m.event_count();
    StepView<Model, Stepper> view{m, st, p, s.t, h, s.y, y_new, t_new, s.t, t_new, s.y, y_new};
    bool fired[E] = {};
    real ya[N] = {};
    copy_n(s.y, n, ya);
    real ta = s.t; // the start of the part of the step not yet shown to the observer
    while (found) {
        // each crossing event is located inside the bracket [t_lo, t_first] the earlier ones left
        int first = -1;
        real t_first = t_hi;
        for (int k = 0; k < ne; ++k) {
            const real gak = pick(ga, k, ne);
            const real gbk = pick(gb, k, ne);
            if (!event_crossed(m.event_direction(k), gak, gbk)) continue;
            const real tc =
                locate_crossing(m, view, p, k, t_lo, gak, t_first, gbk, pick(ev.tolerance, k, ne), yb, gb);
            if (first < 0 || tc < t_first) {
                first = k;
                t_first = tc;
            }
        }
        view.t0 = ta;
        view.y0 = ya;
        view.t1 = t_first;
        view.y1 = yb;
        obs.on_step(view);
        if (first == s.rebound_event && leaving_surface(m, first, t_first, yb, p)) {
            // the state stays where the crossings accumulate, unreset
            s.t = t_first;
            s.t_low = real(0);
            copy_n(yb, n, s.y);
            copy_n(gb, ne, s.g);
            s.status = Status::EventsAccumulate;
            return StepEnd::Stopped;
        }
        // the located event, then any other event that crossed by the same point, in index order
        bool changed = false, stop = false;
        for (int k = 0; k < ne; ++k)
            fired[k] = false;
        stop = fire_event(m, s, first, t_first, yb, p, ev.stop_after, changed, fired, obs);
        for (int k = 0; k < ne; ++k)
            if (k != first && event_crossed(m.event_direction(k), pick(ga, k, ne), pick(gb, k, ne)))
                stop = fire_event(m, s, k, t_first, yb, p, ev.stop_after, changed, fired, obs) || stop;
        // after a reset the rest of this step's dense output describes a motion that no longer is
        if (stop || changed) return commit_event_point(m, st, s, t_first, h, yb, p, stop, fired);
        // nothing changed: search the rest of this step, comparing with g just past the event
        ta = t_first;
        copy_n(yb, n, ya);
        copy_n(gb, ne, ga);
        const real t_later =
            min_of(t_first + real(100) * epsilon<real>() * (m::fabs(t_first) + m::fabs(h)), t_new);
        view.state_at(t_later, yb);
        look_past_event(m, t_first, h, yb, p, fired, ga);
        // ga holds the fired events' values at t_later: the search starts there, so that no root at
        // the event point itself, where they lie on the new side, is found again
        t_lo = t_later;
        t_hi = t_new;
        found = bracket_first_crossing(m, view, p, t_lo, ga, t_hi, y_new, g_new, yb, gb);
    }
    view.t0 = ta;
    view.y0 = ya;
    view.t1 = t_new;
    view.y1 = y_new;
    obs.on_step(view);
    // XPPAUT's sign-0 events: g exactly zero at the step end
    bool changed = false, stop = false;
    copy_n(y_new, n, yb);
    for (int k = 0; k < ne; ++k)
        fired[k] = false;
    for (int k = 0; k < ne; ++k)
        if (m.event_direction(k) == 0 && pick(g_new, k, ne) == real(0))
            stop = fire_event(m, s, k, t_new, yb, p, ev.stop_after, changed, fired, obs) || stop;
    if (stop || changed) return commit_event_point(m, st, s, t_new, h, yb, p, stop, fired);
    return StepEnd::Continue;
}

// Event handling for the accepted step [s.t, t_new] from s.y to y_new. On Continue, g_new holds
// the event values at t_new; otherwise s has been moved to the event point. The step, and after an
// event that changed nothing the rest of it, is searched part by part (bracket_first_crossing):
// every event that crossed within the first part that shows a crossing is located there, each in
// the bracket left by the previous ones, so the earliest crossing ends the bracket.
template <class Model, class Stepper, class Observer>
BIF_HD StepEnd process_step(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real* p,
                            typename Model::real h, typename Model::real t_new,
                            const typename Model::real* y_new, typename Model::real* g_new,
                            const EventSettings<typename Model::real, Model::num_events>& ev, Observer& obs) {
    using real = typename Model::real;
    constexpr int N = Model::num_states;
    constexpr int E = capacity(Model::num_events);
    const int ne = m.event_count();
    StepView<Model, Stepper> view{m, st, p, s.t, h, s.y, y_new, t_new, s.t, t_new, s.y, y_new};
    m.events(t_new, y_new, p, g_new);
    // ga: the event values at t_lo, the start of the part searched; yb, gb: at its end t_hi
    real ga[E] = {}, yb[N] = {}, gb[E] = {};
    copy_n(s.g, ne, ga);
    real t_lo = s.t, t_hi = t_new;
    if (s.g_ahead > real(0)) {
        // just after an event point the search starts past it, with this step's own values there:
        // a root finder given the look-ahead value at the event point itself, where the step's dense
        // output has the fired event on its new side, would find that point again
        t_lo = min_of(s.t + s.g_ahead, t_new);
        view.state_at(t_lo, yb);
        m.events(t_lo, yb, p, ga);
    }
    const bool found = bracket_first_crossing(m, view, p, t_lo, ga, t_hi, y_new, g_new, yb, gb);
    bool exact_zero = false;
    BIF_UNROLL
    for (int k = 0; k < ne; ++k)
        exact_zero = exact_zero || (m.event_direction(k) == 0 && g_new[k] == real(0));
    if (!found && !exact_zero) {
        obs.on_step(view);
        return StepEnd::Continue;
    }
    if constexpr (rare_paths_outlined) {
        const int n = m.dimension();
        const int np = m.param_slot_count();
        SystemState<Model> s_c = s;
        Stepper st_c = st;
        Observer obs_c = obs;
        const EventSettings<real, Model::num_events> ev_c = ev;
        real p_c[capacity(Model::num_param_slots)], y_c[N], g_c[E], ga_c[E], yb_c[N], gb_c[E];
        copy_n(p, np, p_c);
        copy_n(y_new, n, y_c);
        copy_n(g_new, ne, g_c);
        copy_n(ga, ne, ga_c);
        copy_n(yb, n, yb_c);
        copy_n(gb, ne, gb_c);
        const StepEnd end = process_crossings(m, st_c, s_c, p_c, h, t_new, y_c, g_c, ev_c, obs_c, found, t_lo,
                                              t_hi, ga_c, yb_c, gb_c);
        s = s_c;
        st = st_c;
        copy_n(p_c, np, p);
        return end;
    } else {
        return process_crossings(m, st, s, p, h, t_new, y_new, g_new, ev, obs, found, t_lo, t_hi, ga, yb, gb);
    }
}

// MPGOS's equilibrium guard: count consecutive steps that end inside some event zone.
template <class Model>
BIF_HD bool settled_in_event_zone(const Model& m, SystemState<Model>& s,
                                  const EventSettings<typename Model::real, Model::num_events>& ev) {
    if (ev.equilibrium_steps <= 0) return false;
    int inside = -1;
    BIF_UNROLL
    for (int k = 0; k < m.event_count(); ++k)
        if (inside < 0 && m::fabs(s.g[k]) <= ev.tolerance[k]) inside = k;
    s.zone_steps = inside >= 0 ? s.zone_steps + 1 : 0;
    if (s.zone_steps < ev.equilibrium_steps) return false;
    s.stop_event = inside;
    return true;
}

template <class Model>
BIF_HD Status finish(SystemState<Model>& s, Status status) {
    s.status = status;
    return status;
}

// BIF_ENSEMBLE_BOUNDED 0 or 1 (set by the CUDA backend from the study's bound): only the unrolled
// fixed-step loop the study runs is compiled (Lorenz RK4: a 12% smaller image, 8% less compile time),
// and with 0 no bound test is compiled at all. Those tests after the step loops (the last partial
// step, the checked rerun) cost Lorenz RK4 4% on an H100 although they never run in its loop: with
// them, ptxas kept the shared parameters in ordinary registers reloaded at every pass instead of
// uniform ones (tests/bench/NOTES.md, session 9). 2, the default, chooses at run time.
#ifndef BIF_ENSEMBLE_BOUNDED
#define BIF_ENSEMBLE_BOUNDED 2
#endif

// Whether some bounded component of y lies beyond set.bound (never with no bound, nor for a NaN,
// which is the finiteness checks' to report).
template <class Real, int N>
BIF_HD bool beyond_bound(const SolverSettings<Real, N>& set, const Real* y, int n) {
    if constexpr (BIF_ENSEMBLE_BOUNDED == 0) return false;
    if (!(set.bound > Real(0))) return false;
    const int k = n < set.bounded ? n : set.bounded;
    bool out = false;
    for (int i = 0; i < k; ++i)
        out = out || m::fabs(y[i]) > set.bound;
    return out;
}

template <class Observer>
struct is_no_observer {
    static constexpr bool value = false;
};
template <>
struct is_no_observer<NoObserver> {
    static constexpr bool value = true;
};

// The same test without a branch, for the unchecked fixed-step loop: a few compares per step that
// the loop accumulates, rather than an exit it would have to test.
template <class Real, int N>
BIF_HD BIF_FORCEINLINE bool beyond_bound_flag(const SolverSettings<Real, N>& set, const Real* y, int n) {
    bool out = false;
    BIF_UNROLL
    for (int i = 0; i < N; ++i)
        out |= (i < n) & (i < set.bounded) & (m::fabs(y[i]) > set.bound);
    return out & (set.bound > Real(0));
}

} // namespace detail

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
// (Lorenz RK4 float 1.650 ms against 1.727 at 4, double 2.966 against 2.980; tests/bench/NOTES.md).
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
        // H100 (tests/bench/NOTES.md)
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
