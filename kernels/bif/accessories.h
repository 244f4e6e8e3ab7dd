// Accessories (MPGOS's term): per-system features of one recording interval computed inside the
// integration loop, so that only they leave the GPU.
//   - minimum and maximum of every observable (m.observables) and the times they occur;
//   - crossings of every event in the interval;
//   - the observables at the n-th crossing of event k (n = capture_at[k]).
// Extrema: every step end is a candidate. With refine_extrema the observables are also evaluated
// at the step midpoint on the dense output; when the parabola through the start, middle and end
// values peaks inside the step beyond the extremum found so far, the peak is located by golden-
// section search on the dense output (interior extrema to interpolant accuracy, times to ~1e-5 h).
// Without it, extrema are the values at step ends and event points.
//
//   Accessories<M> acc;  AccessoryObserver<M> obs{m, settings, acc};
//   obs.begin(t, y, p);  integrate(..., obs);  // acc now holds the interval's features
#pragma once

#include "bif/events.h"
#include "bif/kernel_support.h"

namespace bif {

template <class Model>
struct AccessorySettings {
    bool refine_extrema = true;
    int capture_at[capacity(Model::num_events)] = {}; // crossing number to capture per event (0: none)
};

template <class Model>
struct Accessories {
    using real = typename Model::real;
    static constexpr int O = capacity(Model::num_observables);
    static constexpr int E = capacity(Model::num_events);
    real min[O] = {};
    real max[O] = {};
    real t_min[O] = {};
    real t_max[O] = {};
    int crossings[E] = {};
    bool captured[E] = {};
    real at_event[E * O] = {}; // observables at the capture_at[k]-th crossing: at_event[k * O + j]
};

template <class Model>
struct AccessoryObserver {
    using real = typename Model::real;
    static constexpr int O = capacity(Model::num_observables);

    const Model& m;
    const AccessorySettings<Model>& settings;
    Accessories<Model>& acc;

    // Starts an interval at (t, y): extrema start from the current values, counters from zero.
    BIF_HD void begin(real t, const real* y, const real* p) {
        real o[O];
        m.observables(t, y, p, o);
        BIF_UNROLL
        for (int j = 0; j < m.observable_count(); ++j) {
            acc.min[j] = acc.max[j] = o[j];
            acc.t_min[j] = acc.t_max[j] = t;
        }
        BIF_UNROLL
        for (int k = 0; k < m.event_count(); ++k) {
            acc.crossings[k] = 0;
            acc.captured[k] = false;
        }
    }

    template <class View>
    BIF_HD void on_step(const View& v) {
        real o1[O];
        m.observables(v.t1, v.y1, v.p, o1);
        consider(v.t1, o1);
        if (!settings.refine_extrema || !(v.t1 > v.t0)) return;
        real o0[O], om[O], y[Model::num_states];
        m.observables(v.t0, v.y0, v.p, o0);
        const real tm = v.t0 + real(0.5) * (v.t1 - v.t0);
        v.state_at(tm, y);
        m.observables(tm, y, v.p, om);
        consider(tm, om);
        for (int j = 0; j < m.observable_count(); ++j) {
            const real a = pick(o0, j, O), b = pick(om, j, O), c = pick(o1, j, O);
            // parabola a + B th + C th^2 through th = 0, 1/2, 1: C = 2(a - 2b + c), B = c - a - C
            const real C = real(2) * (a - real(2) * b + c);
            const real B = c - a - C;
            const real th = -B / (real(2) * C);
            if (!(th > real(0) && th < real(1))) continue;
            const real peak = a + B * th + C * th * th;
            if (C < real(0) && peak > pick(acc.max, j, O)) refine(v, j, real(1));
            if (C > real(0) && peak < pick(acc.min, j, O)) refine(v, j, real(-1));
        }
    }

    template <class Hit>
    BIF_HD void on_event(const Hit& e) {
        real o[O];
        int count = 0;
        for (int k = 0; k < m.event_count(); ++k)
            if (k == e.index) count = ++acc.crossings[k];
        const int wanted = pick(settings.capture_at, e.index, m.event_count());
        m.observables(e.t, e.y_before, e.p, o);
        if (wanted > 0 && count == wanted) {
            for (int j = 0; j < m.observable_count(); ++j)
                acc.at_event[e.index * O + j] = o[j];
            acc.captured[e.index] = true;
        }
        // the state after the resets is part of the trajectory as well
        m.observables(e.t, e.y_after, e.p, o);
        consider(e.t, o);
    }

  private:
    BIF_HD void consider(real t, const real* o) {
        BIF_UNROLL
        for (int j = 0; j < m.observable_count(); ++j) {
            if (o[j] > acc.max[j]) {
                acc.max[j] = o[j];
                acc.t_max[j] = t;
            }
            if (o[j] < acc.min[j]) {
                acc.min[j] = o[j];
                acc.t_min[j] = t;
            }
        }
    }

    // sign * observable j at time t on the step's dense output
    template <class View>
    BIF_HD real value_at(const View& v, int j, real sign, real t) const {
        real y[Model::num_states], o[O];
        v.state_at(t, y);
        m.observables(t, y, v.p, o);
        return sign * pick(o, j, O);
    }

    // Golden-section search for the largest sign * o_j on [t0, t1] (Kiefer 1953), 24 reductions.
    template <class View>
    BIF_HD void refine(const View& v, int j, real sign) {
        const real r = real(0.6180339887498949);
        real lo = v.t0, hi = v.t1;
        real x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
        real f1 = value_at(v, j, sign, x1), f2 = value_at(v, j, sign, x2);
        for (int iter = 0; iter < 24; ++iter) {
            if (f1 < f2) {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + r * (hi - lo);
                f2 = value_at(v, j, sign, x2);
            } else {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - r * (hi - lo);
                f1 = value_at(v, j, sign, x1);
            }
        }
        const real best = f1 > f2 ? f1 : f2;
        const real t_best = f1 > f2 ? x1 : x2;
        for (int i = 0; i < m.observable_count(); ++i) {
            if (i != j) continue;
            if (sign > real(0) && best > acc.max[i]) {
                acc.max[i] = best;
                acc.t_max[i] = t_best;
            }
            if (sign < real(0) && -best < acc.min[i]) {
                acc.min[i] = -best;
                acc.t_min[i] = t_best;
            }
        }
    }
};

} // namespace bif
