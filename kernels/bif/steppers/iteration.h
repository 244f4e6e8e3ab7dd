// Iteration of a map y_{n+1} = f(t_n, y_n): the model's rhs computes the next value (a map model,
// engine/model's ModelKind::Map), and one "step" of size 1 is one iterate, so that time counts
// iterates and every driver and study program runs a map as it runs a fixed-step flow.
//
// Stepper interface: see rk4.h. No error estimate (error_order 0): the driver steps with h = 1,
// the study layer's fixed step for a map. Dense output is piecewise constant: a map has no motion
// between iterates, and the value at a time inside a step is the iterate that started it.
//
// Events (XPPAUT's `global` in a map) are tested at iterates, not located inside a step:
// detail::iterate_with_events, which integrate_steps (bif/integrate.h) calls for a stepper that
// declares `steps_iterates`. The tangent extension (bif/lyapunov.h: [f(y); J(y) v]) iterated by
// this stepper is the map's tangent map v -> J v, so Lyapunov exponents come per iterate.
#pragma once

#include "bif/integrate.h"
#include "bif/kernel_support.h"

namespace bif {

template <class Model>
struct Iteration {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int order = 1;
    static constexpr int error_order = 0;
    static constexpr bool steps_iterates = true;

    bool ready = false;
    real f0[N] = {}; // the next iterate f(t_n, y_n), for the driver's finiteness check at a start

    BIF_HD bool start(const Model& m, real t, const real* y, const real* p) {
        m.rhs(t, y, p, f0);
        ready = true;
        return all_finite(y, m.dimension());
    }

    // y_new = f(t, y); the step size is one iterate whatever h says
    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real&, real* y_new,
                        const Settings&) {
        m.rhs(t, y, p, y_new);
        return real(0);
    }

    BIF_HD void reject() {}
    BIF_HD void accept(const Model&, real, const real*, const real*, real, const real*) {}
    BIF_HD void advance(int) {}

    BIF_HD void state_at(real theta, real, const real* y0, const real* y1, int n, real* out) const {
        copy_n(theta < real(1) ? y0 : y1, n, out);
    }
};

namespace detail {

// The steps of integrate_steps for a map with events: each iterate y_new = f(t, y) at t + 1, then
// every event whose value crossed between the two iterates (or is exactly 0 for a direction-0
// event) fires at t + 1, in index order, on the new iterate. The event values compared next are
// those after the resets.
template <class Model, class Stepper, class Observer>
BIF_HD Status iterate_with_events(const Model& m, Stepper& st, SystemState<Model>& s, typename Model::real* p,
                                  typename Model::real t_end,
                                  const SolverSettings<typename Model::real, Model::num_states>& set,
                                  int max_attempts,
                                  const EventSettings<typename Model::real, Model::num_events>& ev,
                                  Observer& obs) {
    using real = typename Model::real;
    constexpr int N = Model::num_states;
    constexpr int E = capacity(Model::num_events);
    const int n = m.dimension();
    const int ne = m.event_count();
    real y_new[N];
    real g_new[E];
    for (int attempts = 0; s.t < t_end; ++attempts) {
        if (attempts >= max_attempts) return finish(s, Status::StepBudgetSpent);
        real h = real(1);
        st.attempt(m, s.t, s.y, p, h, y_new, set);
        if (!all_finite(y_new, n)) return finish(s, Status::NonFinite);
        const real t_new = s.t + real(1);
        ++s.accepted;
        obs.on_step(StepView<Model, Stepper>{m, st, p, s.t, h, s.y, y_new, t_new, s.t, t_new, s.y, y_new});
        m.events(t_new, y_new, p, g_new);
        bool fired[E] = {};
        bool changed = false, stop = false;
        for (int k = 0; k < ne; ++k) {
            const int direction = m.event_direction(k);
            const bool crossed =
                direction == 0 ? g_new[k] == real(0) : event_crossed(direction, s.g[k], g_new[k]);
            if (crossed)
                stop = fire_event(m, s, k, t_new, y_new, p, ev.stop_after, changed, fired, obs) || stop;
        }
        if (changed) m.events(t_new, y_new, p, g_new);
        s.t = t_new;
        copy_n(y_new, n, s.y);
        copy_n(g_new, ne, s.g);
        if (stop) return finish(s, Status::StoppedByEvent);
        if (!all_finite(s.y, n)) return finish(s, Status::NonFinite);
        if (beyond_bound(set, s.y, n)) return finish(s, Status::Escaped);
    }
    return finish(s, Status::Ok);
}

} // namespace detail

} // namespace bif
