// What the section analyses measure between section points, inside the integration loop:
//   - the extremes of every observable over the current interval (bifurcation max_between /
//     min_between), restarted at each section point;
//   - accessories over the steps of the recorded phase: the max, the min, or the time mean.
// Candidates are every step end, the state after an event's resets, the step's midpoint on the
// dense output and, when the parabola through start, middle and end peaks inside the step beyond
// the extreme found so far, the dense output at that vertex (one interpolation step, error
// O(h^4) for a smooth observable; the kernels' golden-section search would cost ~26 evaluations).
// The time mean integrates each step with Simpson's rule on the same three values.
#pragma once

#include "bif/events.h"
#include "bif/kernel_support.h"
#include "bif/study/block.h"
#include "bif/study/common.h"

namespace bif::ensemble {

// Carried between slices.
template <class Model>
struct IntervalStats {
    using real = typename Model::real;
    static constexpr int O = capacity(Model::num_observables);
    real lo[O] = {};         // this interval's minimum of each observable
    real hi[O] = {};         // and maximum
    real acc[O] = {};        // step accessories over the recorded phase
    real acc_time = real(0); // time covered by the step accessories
};

template <class Model>
BIF_HD void begin_interval(const Model& m, IntervalStats<Model>& st, const typename Model::real* o) {
    for (int j = 0; j < m.observable_count(); ++j)
        st.lo[j] = st.hi[j] = o[j];
}

// The start of the recorded phase at a section point with observables o: maxima and minima start
// there (over sections and over steps alike), sums at zero.
template <class Model>
BIF_HD void begin_accessories(const Block<Model>& b, IntervalStats<Model>& st,
                              const typename Model::real* o) {
    using real = typename Model::real;
    constexpr int O = capacity(Model::num_observables);
    for (int a = 0; a < b.accessory_count; ++a)
        st.acc[a] = b.accessory_reduce[a] == reduce_mean ? real(0) : pick(o, b.accessory_observable[a], O);
    st.acc_time = real(0);
}

// The max and min step accessories at one candidate with observables o (a study that asks for them;
// few do).
template <class Model>
BIF_HD BIF_FORCEINLINE void extreme_step_accessories(const Block<Model>& b, typename Model::real* acc,
                                                     const typename Model::real* o) {
    using real = typename Model::real;
    constexpr int O = capacity(Model::num_observables);
    for (int a = 0; a < b.accessory_count; ++a) {
        if (b.accessory_over[a] != over_steps || b.accessory_reduce[a] == reduce_mean) continue;
        const real x = pick(o, b.accessory_observable[a], O);
        const bool better = b.accessory_reduce[a] == reduce_max ? x > acc[a] : x < acc[a];
        if (better) acc[a] = x;
    }
}

// Observables passed by value: an out-of-line function that took them by address would keep every
// caller's array in local memory.
template <class Model>
struct ObservableValues {
    typename Model::real v[capacity(Model::num_observables)];
};

// The same as a BIF_COLD function, for a model with events: its observer considers candidates at
// many places of the step loop (after resets, in located steps), each a copy of the loop above (the
// relief valve's step kernel: 240 of 2078 instructions). A model without events keeps it inline: out
// of line it cost the Duffing period map's kernel 3.6% (tests/bench/README.md).
template <class Model>
BIF_HD BIF_COLD void extreme_step_accessories_cold(const Block<Model>& b, typename Model::real* acc,
                                                   const ObservableValues<Model> o) {
    extreme_step_accessories(b, acc, o.v);
}

// Observer for integrate(), given only when the block asks for interval extremes or step accessories;
// `Base` is the analysed model, IM the integrated one (the model or its tangent extension, whose
// observables are the model's).
template <class Base, class IM>
struct IntervalObserver {
    using real = typename Base::real;
    static constexpr int O = capacity(Base::num_observables);

    const IM& m;
    const Block<Base>& b;
    IntervalStats<Base>& st;
    bool recording;     // the recorded phase: accumulate step accessories
    bool active = true; // false: sees nothing (BIF_ENSEMBLE_OBSERVES_STEPS 2, bif/study/section_program.h)

    template <class View>
    BIF_HD void on_step(const View& v) {
        if (!active) return;
        real o0[O] = {}, om[O] = {}, o1[O] = {};
        real y[IM::num_states];
        const real dt = v.t1 - v.t0;
        m.observables(v.t1, v.y1, v.p, o1);
        if (!(dt > real(0))) {
            consider(o1);
            return;
        }
        m.observables(v.t0, v.y0, v.p, o0);
        const real tm = v.t0 + real(0.5) * dt;
        v.state_at(tm, y);
        m.observables(tm, y, v.p, om);
        if (recording && b.step_accessories) accumulate_mean(o0, om, o1, dt);
        consider(o1);
        consider(om);
        for (int j = 0; j < m.observable_count(); ++j) {
            // parabola a + B th + C th^2 through th = 0, 1/2, 1: C = 2(a - 2b + c), B = c - a - C
            const real a = o0[j], c = o1[j], C = real(2) * (a - real(2) * om[j] + c);
            const real B = c - a - C;
            const real th = -B / (real(2) * C);
            if (!(th > real(0) && th < real(1))) continue;
            const real peak = a + B * th + C * th * th;
            const bool beyond = (C < real(0) && peak > st.hi[j]) || (C > real(0) && peak < st.lo[j]);
            if (!beyond) continue;
            real ov[O] = {};
            const real tv = v.t0 + th * dt;
            v.state_at(tv, y);
            m.observables(tv, y, v.p, ov);
            consider(ov);
        }
    }

    template <class Hit>
    BIF_HD void on_event(const Hit& e) {
        if (!active) return;
        real o[O] = {};
        m.observables(e.t, e.y_after, e.p, o);
        consider(o);
    }

  private:
    BIF_HD void consider(const real* o) {
        for (int j = 0; j < m.observable_count(); ++j) {
            st.lo[j] = o[j] < st.lo[j] ? o[j] : st.lo[j];
            st.hi[j] = o[j] > st.hi[j] ? o[j] : st.hi[j];
        }
        if (!recording || !b.step_accessories) return;
        if constexpr (Base::num_events > 0) {
            ObservableValues<Base> values;
            BIF_UNROLL
            for (int j = 0; j < O; ++j)
                values.v[j] = o[j];
            extreme_step_accessories_cold(b, st.acc, values);
        } else {
            extreme_step_accessories(b, st.acc, o);
        }
    }

    // Simpson's rule over the step: dt (o0 + 4 om + o1) / 6
    BIF_HD void accumulate_mean(const real* o0, const real* om, const real* o1, real dt) {
        for (int a = 0; a < b.accessory_count; ++a) {
            if (b.accessory_over[a] != over_steps || b.accessory_reduce[a] != reduce_mean) continue;
            const int k = b.accessory_observable[a];
            st.acc[a] += dt * (pick(o0, k, O) + real(4) * pick(om, k, O) + pick(o1, k, O)) / real(6);
        }
        st.acc_time += dt;
    }
};

} // namespace bif::ensemble
