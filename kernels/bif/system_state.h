// What the integration driver (bif/integrate.h) carries per system, and what its observers see:
// the state carried between calls (time, step size, controller memory, event values, counters),
// one accepted step as a view, one fired event as a hit.
#pragma once

#include "bif/controlled_step.h"
#include "bif/kernel_support.h"
#include "bif/status.h"

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

template <class Model>
BIF_HD Status finish(SystemState<Model>& s, Status status) {
    s.status = status;
    return status;
}

template <class Observer>
struct is_no_observer {
    static constexpr bool value = false;
};
template <>
struct is_no_observer<NoObserver> {
    static constexpr bool value = true;
};

} // namespace detail

} // namespace bif
