// The derivatives at the two ends of a step that every stepper here keeps, and the bookkeeping of
// them the steppers share: f0 = f(t_n, y_n), made by start() and taken over from f1 by advance();
// f1 = f(t_{n+1}, y_{n+1}), evaluated by the attempt itself where the method needs it there
// (AttemptMakesF1: DOPRI5's FSAL stage, RKC's and Rosenbrock23's F_{n+1}), else by accept(). Dense
// output by default: cubic Hermite from both. Interface: see rk4.h.
#pragma once

#include "bif/kernel_support.h"

namespace bif {

// Cubic Hermite interpolation inside one step from y_n, y_{n+1}, f_n, f_{n+1} (third order, local
// error O(h^4)), in the form of Hairer, Norsett & Wanner I, II.6 eq. (6.7):
//   u(theta) = y0 + theta dy + theta (theta - 1) ((1 - 2 theta) dy + (theta - 1) h f0 + theta h f1),
//   dy = y1 - y0
template <class Real>
BIF_HD BIF_FORCEINLINE void hermite_interpolate(Real theta, Real h, const Real* y0, const Real* y1,
                                                const Real* f0, const Real* f1, int n, Real* out) {
    const Real a = theta * (theta - Real(1));
    const Real b = Real(1) - Real(2) * theta;
    BIF_UNROLL
    for (int i = 0; i < n; ++i) {
        const Real dy = y1[i] - y0[i];
        out[i] = y0[i] + theta * dy + a * (b * dy + (theta - Real(1)) * h * f0[i] + theta * h * f1[i]);
    }
}

template <class Model, bool AttemptMakesF1>
struct EndpointDerivatives {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;

    bool ready = false;
    real f0[N] = {}; // f(t_n, y_n)
    real f1[N] = {}; // f(t_{n+1}, y_{n+1}) of the last attempt, or once accepted

    BIF_HD bool start(const Model& m, real t, const real* y, const real* p) {
        m.rhs(t, y, p, f0);
        ready = true;
        return all_finite(f0, m.dimension());
    }

    BIF_HD void reject() {}

    BIF_HD void accept([[maybe_unused]] const Model& m, [[maybe_unused]] real t, const real*,
                       [[maybe_unused]] const real* p, [[maybe_unused]] real h,
                       [[maybe_unused]] const real* y_new) {
        if constexpr (!AttemptMakesF1) m.rhs(t + h, y_new, p, f1);
    }

    BIF_HD void state_at(real theta, real h, const real* y0, const real* y1, int n, real* out) const {
        hermite_interpolate(theta, h, y0, y1, f0, f1, n, out);
    }

    BIF_HD void advance(int n) { copy_n(f1, n, f0); }
};

} // namespace bif
