// Rosenbrock23: the L-stable second-order Rosenbrock (W-)method with a third-order error estimate
// of L. F. Shampine and M. W. Reichelt, "The MATLAB ODE Suite", SIAM J. Sci. Comput. 18 (1997)
// 1-22, Section 3 (MATLAB's ode23s; Rosenbrock23 in OrdinaryDiffEq):
//   d = 1/(2 + sqrt 2),  e32 = 6 + sqrt 2,  W = I - h d J,  T = df/dt
//   k1 = W^-1 (F0 + h d T)
//   F1 = f(t + h/2, y + h/2 k1);   k2 = W^-1 (F1 - k1) + k1
//   y_new = y + h k2
//   F2 = f(t + h, y_new);          k3 = W^-1 (F2 - e32 (k2 - F1) - 2 (k1 - F0) + h d T)
//   err = h/6 (k1 - 2 k2 + k3)
// One Jacobian, one LU and three solves per attempt; F2 is the next F0 (FSAL). A singular W
// rejects the step. Dense output: cubic Hermite from F0 and F2.
// Interface: see rk4.h.
#pragma once

#include "bif/error_norm.h"
#include "bif/steppers/endpoint_derivatives.h"
#include "bif/steppers/iteration_matrix.h"

namespace bif {

template <class Model>
struct Rosenbrock23 : EndpointDerivatives<Model, true> {
    using Base = EndpointDerivatives<Model, true>;
    using Base::f0, Base::f1, Base::N;
    using typename Base::real;
    static constexpr int order = 2;
    static constexpr int error_order = 2;

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings& s) {
        const real d = real(1) / (real(2) + m::sqrt(real(2)));
        const real e32 = real(6) + m::sqrt(real(2));
        const int n = m.dimension();
        IterationMatrix<Model> w;
        real dfdt[N];
        m.time_derivative(t, y, p, dfdt);
        // W = I - h d J
        if (!w.factor(m, t, y, p, real(1), h * d)) {
            copy_n(y, n, y_new);
            return failed_step_error<real>();
        }
        real k1[N], k2[N], k3[N], tmp[N];
        // k1 = W^-1 (F0 + h d T)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k1[i] = f0[i] + h * d * dfdt[i];
        w.solve(m, k1);
        // F1 = f(t + h/2, y + h/2 k1)  (kept in k3)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + real(0.5) * h * k1[i];
        m.rhs(t + real(0.5) * h, tmp, p, k3);
        // k2 = W^-1 (F1 - k1) + k1
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k2[i] = k3[i] - k1[i];
        w.solve(m, k2);
        // y_new = y + h k2;  F2 = f(t + h, y_new)
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            k2[i] += k1[i];
            y_new[i] = y[i] + h * k2[i];
        }
        m.rhs(t + h, y_new, p, f1);
        // k3 = W^-1 (F2 - e32 (k2 - F1) - 2 (k1 - F0) + h d T)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k3[i] = f1[i] - e32 * (k2[i] - k3[i]) - real(2) * (k1[i] - f0[i]) + h * d * dfdt[i];
        w.solve(m, k3);
        // err = h/6 (k1 - 2 k2 + k3)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = (h / real(6)) * (k1[i] - real(2) * k2[i] + k3[i]);
        return scaled_error(y, y_new, tmp, n, s);
    }
};

} // namespace bif
