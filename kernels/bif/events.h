// Event functions g_k(t, y): crossing tests, the per-event settings, and location of a crossing
// by root finding on the accepted step's dense output (a few interpolant evaluations instead of
// MPGOS's repeated Runge-Kutta steps).
//
// Directions (m.event_direction(k)), following XPPAUT's `global` events:
//   +1  g goes from < 0 to >= 0       -1  g goes from > 0 to <= 0
//    2  either of the two             0   g is exactly 0 at a step end (XPPAUT's sign 0; no location)
// An exact zero counts as reaching the new side, so a located event whose g is 0 is not found again.
#pragma once

#include "bif/kernel_support.h"

// Interior points of each accepted step (of models with events) at which the event functions are
// sampled on the dense output, evenly spaced. A crossing pair that an end-point test cannot see (g
// leaves its side and comes back within one step: a grazing orbit, a fast double crossing) is found
// once a sample falls between the two crossings, i.e. always when they are more than h / (S + 1)
// apart. 3 (quarter steps) costs 3 interpolations and event evaluations per step; 0 keeps the end
// points only. What the samples do not catch: a pair of crossings that both fall between two
// neighbouring samples (an excursion shorter than h / (S + 1)), and of three or more crossings
// between two samples, only one is seen (not necessarily the earliest).
#ifndef BIF_EVENT_SAMPLES
#define BIF_EVENT_SAMPLES 3
#endif

namespace bif {

template <class Real, int E>
struct EventSettings {
    static constexpr int slots = capacity(E);
    // Location stops once |g_k| <= tolerance[k] on the new side (MPGOS's event zone half-width);
    // 0 locates the crossing time to a few ulp.
    Real tolerance[slots] = {};
    // Stop the system at this crossing count of event k (0: never), MPGOS's EventStopCondition.
    int stop_after[slots] = {};
    // Stop after this many consecutive accepted steps that end with some |g_k| <= tolerance[k]:
    // a trajectory that settled on an equilibrium inside an event zone (MPGOS's
    // MaximumIterationForEquilibrium). 0: off.
    int equilibrium_steps = 0;
};

template <class Real>
BIF_HD BIF_FORCEINLINE bool event_crossed(int direction, Real g_old, Real g_new) {
    const bool up = g_old < Real(0) && g_new >= Real(0);
    const bool down = g_old > Real(0) && g_new <= Real(0);
    return (direction == 1 && up) || (direction == -1 && down) || (direction == 2 && (up || down));
}

// Whether some event crossed (by its direction) between event values g_old and g_new.
template <class Model>
BIF_HD BIF_FORCEINLINE bool some_event_crossed(const Model& m, const typename Model::real* g_old,
                                               const typename Model::real* g_new) {
    bool any = false;
    BIF_UNROLL
    for (int k = 0; k < m.event_count(); ++k)
        any = any || event_crossed(m.event_direction(k), g_old[k], g_new[k]);
    return any;
}

// g[k] for a run-time k without indexing a register array at run time (a select per element).
template <class Real>
BIF_HD BIF_FORCEINLINE Real pick(const Real* g, int k, int count) {
    Real v = Real(0);
    BIF_UNROLL
    for (int i = 0; i < count; ++i)
        v = i == k ? g[i] : v;
    return v;
}

template <class Real>
BIF_HD BIF_FORCEINLINE int pick(const int* g, int k, int count) {
    int v = 0;
    BIF_UNROLL
    for (int i = 0; i < count; ++i)
        v = i == k ? g[i] : v;
    return v;
}

namespace detail {
template <class M, class = void>
struct event_gradient_of {
    static constexpr bool provided = false;
};
template <class M>
struct event_gradient_of<M, decltype(void(&M::event_gradient))> {
    static constexpr bool provided = true;
};
} // namespace detail

// Models with the event gradients of model_contract.h (generated ones always have them).
template <class M>
inline constexpr bool ProvidesEventGradient = detail::event_gradient_of<M>::provided;

// Locates the crossing of event k inside [ta, tb] with the Illinois variant of regula falsi
// (Dahlquist & Bjorck, Numerical Methods, 1974, Sect. 6.2.3): secant points, and the function
// value kept at an end point that survives twice in a row is halved. g_a lies on the old side,
// g_b on the new side; the bracket end on the new side is returned so that the event is never
// detected twice. On entry y_b and g_b_all hold the state and all event values at tb; on return
// they hold them at the returned time. `state_at(t, y)` is the step's dense output.
template <class Model, class Interpolant>
BIF_HD typename Model::real locate_crossing(const Model& m, const Interpolant& in,
                                            const typename Model::real* p, int k, typename Model::real ta,
                                            typename Model::real ga, typename Model::real tb,
                                            typename Model::real gb, typename Model::real tolerance,
                                            typename Model::real* y_b, typename Model::real* g_b_all) {
    using real = typename Model::real;
    const int n = m.dimension();
    const int ne = m.event_count();
    const bool rising = ga < real(0);
    real fa = ga, fb = gb, g_true_b = gb;
    int kept = 0; // +1: b moved last time (a kept), -1: a moved last time (b kept)
    real y_c[Model::num_states];
    real g_c[capacity(Model::num_events)];
    for (int iter = 0; iter < 100; ++iter) {
        if (m::fabs(g_true_b) <= tolerance) break;
        if (tb - ta <= real(4) * epsilon<real>() * max_of(m::fabs(ta), m::fabs(tb))) break;
        // secant through (ta, fa), (tb, fb); bisect when it leaves the open bracket
        real tc = tb - fb * (tb - ta) / (fb - fa);
        if (!(tc > ta && tc < tb)) tc = ta + real(0.5) * (tb - ta);
        in.state_at(tc, y_c);
        m.events(tc, y_c, p, g_c);
        const real gc = pick(g_c, k, ne);
        if (rising ? gc >= real(0) : gc <= real(0)) {
            tb = tc;
            fb = gc;
            g_true_b = gc;
            copy_n(y_c, n, y_b);
            copy_n(g_c, ne, g_b_all);
            if (kept == 1) fa *= real(0.5);
            kept = 1;
        } else {
            ta = tc;
            fa = gc;
            if (kept == -1) fb *= real(0.5);
            kept = -1;
        }
    }
    return tb;
}

// Narrows [t_lo, t_hi] to its first part, between neighbouring points of t_lo, BIF_EVENT_SAMPLES
// evenly spaced interior points and t_hi, over which some event crosses (by its direction), so that
// the earliest crossing is located there even when the end points show none or hide an odd number.
// On entry g_lo holds the event values at t_lo, y_hi and g_hi the state and the event values at
// t_hi; y_s and g_s are scratch. Returns false when no part shows a crossing. Otherwise [t_lo,
// t_hi] is that part, g_lo holds the event values at its start and y_s, g_s the state and the event
// values at its end. `in.state_at(t, y)` is the step's dense output.
template <class Model, class Interpolant>
BIF_HD bool bracket_first_crossing(const Model& m, const Interpolant& in, const typename Model::real* p,
                                   typename Model::real& t_lo, typename Model::real* g_lo,
                                   typename Model::real& t_hi, const typename Model::real* y_hi,
                                   const typename Model::real* g_hi, typename Model::real* y_s,
                                   typename Model::real* g_s) {
    using real = typename Model::real;
    constexpr int samples = BIF_EVENT_SAMPLES;
    const real t_start = t_lo;
    const real spacing = (t_hi - t_start) * (real(1) / real(samples + 1));
    for (int j = 1; j <= samples; ++j) {
        const real t = t_start + real(j) * spacing;
        in.state_at(t, y_s);
        m.events(t, y_s, p, g_s);
        if (some_event_crossed(m, g_lo, g_s)) {
            t_hi = t;
            return true;
        }
        t_lo = t;
        copy_n(g_s, m.event_count(), g_lo);
    }
    if (!some_event_crossed(m, g_lo, g_hi)) return false;
    copy_n(y_hi, m.dimension(), y_s);
    copy_n(g_hi, m.event_count(), g_s);
    return true;
}

} // namespace bif
