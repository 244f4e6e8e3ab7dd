// Event handling within one accepted step, for the integration driver (bif/integrate.h): the
// crossings of the step found, located on its dense output (bif/events.h), shown to the observer
// and fired in time order; a reset that changes the state ends the step at the event point.
// MPGOS's equilibrium guard too (settled_in_event_zone).
#pragma once

#include "bif/events.h"
#include "bif/kernel_support.h"
#include "bif/solver_settings.h"
#include "bif/system_state.h"

namespace bif {

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

} // namespace detail

} // namespace bif
