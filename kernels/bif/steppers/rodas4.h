// Rodas4: the stiffly accurate, L-stable Rosenbrock method of order 4 with an embedded order-3
// solution, six stages. Coefficients: E. Hairer and G. Wanner, Solving Ordinary Differential
// Equations II, 2nd ed., Springer 1996, Sect. VI.4 (method RODAS, the coefficient set METH = 1 of
// their code rodas.f), in the transformed variables of that code, with gamma = 1/4:
//   (1/(h gamma) I - J) k_i = f(t + c_i h, y + sum_{j<i} a_ij k_j) + sum_{j<i} (c_ij/h) k_j + h d_i f_t
//   y_emb = y + sum_j a_5j k_j + k5,   y_new = y_emb + k6,   err = k6
// with c = (0, 0.386, 0.21, 0.63, 1, 1), d = (0.25, -0.1043, 0.1035, -0.0362, 0, 0), stages 5 and 6
// evaluated at t + h, stage 6 at y + sum_j a_5j k_j + k5 (stiffly accurate: a_6j = a_5j, a_65 = 1).
// One Jacobian, one LU, six solves per attempt. f(t+h, y_new) is evaluated on acceptance; it is
// the next step's first stage. Dense output: cubic Hermite. Interface: see rk4.h.
#pragma once

#include "bif/error_norm.h"
#include "bif/steppers/endpoint_derivatives.h"
#include "bif/steppers/iteration_matrix.h"

namespace bif {

template <class Model>
struct Rodas4 : EndpointDerivatives<Model, false> {
    using Base = EndpointDerivatives<Model, false>;
    using Base::f0, Base::N;
    using typename Base::real;
    static constexpr int order = 4;
    static constexpr int error_order = 3;

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings& s) {
        constexpr real gamma = real(0.25);
        constexpr real c2 = real(0.386), c3 = real(0.21), c4 = real(0.63);
        constexpr real d1 = real(0.25), d2 = real(-0.1043), d3 = real(0.1035),
                       d4 = real(-0.3620000000000023e-01);
        constexpr real a21 = real(0.1544000000000000e+01);
        constexpr real a31 = real(0.9466785280815826e+00), a32 = real(0.2557011698983284e+00);
        constexpr real a41 = real(0.3314825187068521e+01), a42 = real(0.2896124015972201e+01),
                       a43 = real(0.9986419139977817e+00);
        constexpr real a51 = real(0.1221224509226641e+01), a52 = real(0.6019134481288629e+01),
                       a53 = real(0.1253708332932087e+02), a54 = real(-0.6878860361058950e+00);
        constexpr real c21 = real(-0.5668800000000000e+01);
        constexpr real c31 = real(-0.2430093356833875e+01), c32 = real(-0.2063599157091915e+00);
        constexpr real c41 = real(-0.1073529058151375e+00), c42 = real(-0.9594562251023355e+01),
                       c43 = real(-0.2047028614809616e+02);
        constexpr real c51 = real(0.7496443313967647e+01), c52 = real(-0.1024680431464352e+02),
                       c53 = real(-0.3399990352819905e+02), c54 = real(0.1170890893206160e+02);
        constexpr real c61 = real(0.8083246795921522e+01), c62 = real(-0.7981132988064893e+01),
                       c63 = real(-0.3152159432874371e+02), c64 = real(0.1631930543123136e+02),
                       c65 = real(-0.6058818238834054e+01);
        const int n = m.dimension();
        IterationMatrix<Model> e;
        real ft[N];
        m.time_derivative(t, y, p, ft);
        // E = 1/(h gamma) I - J
        if (!e.factor(m, t, y, p, real(1) / (h * gamma), real(1))) {
            copy_n(y, n, y_new);
            return failed_step_error<real>();
        }
        const real ih = real(1) / h;
        real k1[N], k2[N], k3[N], k4[N], k5[N], tmp[N];
        // k1 = E^-1 (f0 + h d1 f_t)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k1[i] = f0[i] + h * d1 * ft[i];
        e.solve(m, k1);
        // k2 = E^-1 (f(t + c2 h, y + a21 k1) + c21/h k1 + h d2 f_t)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + a21 * k1[i];
        m.rhs(t + c2 * h, tmp, p, k2);
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k2[i] += ih * c21 * k1[i] + h * d2 * ft[i];
        e.solve(m, k2);
        // k3 = E^-1 (f(t + c3 h, y + a31 k1 + a32 k2) + (c31 k1 + c32 k2)/h + h d3 f_t)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + a31 * k1[i] + a32 * k2[i];
        m.rhs(t + c3 * h, tmp, p, k3);
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k3[i] += ih * (c31 * k1[i] + c32 * k2[i]) + h * d3 * ft[i];
        e.solve(m, k3);
        // k4 = E^-1 (f(t + c4 h, y + a41 k1 + a42 k2 + a43 k3) + (c41 k1 + c42 k2 + c43 k3)/h + h d4 f_t)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + a41 * k1[i] + a42 * k2[i] + a43 * k3[i];
        m.rhs(t + c4 * h, tmp, p, k4);
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k4[i] += ih * (c41 * k1[i] + c42 * k2[i] + c43 * k3[i]) + h * d4 * ft[i];
        e.solve(m, k4);
        // k5 = E^-1 (f(t + h, y + a51 k1 + ... + a54 k4) + (c51 k1 + ... + c54 k4)/h)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            y_new[i] = y[i] + a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i];
        m.rhs(t + h, y_new, p, k5);
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            k5[i] += ih * (c51 * k1[i] + c52 * k2[i] + c53 * k3[i] + c54 * k4[i]);
        e.solve(m, k5);
        // y_emb = (y + sum a5j kj) + k5;  k6 = E^-1 (f(t + h, y_emb) + (c61 k1 + ... + c65 k5)/h)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            y_new[i] += k5[i];
        m.rhs(t + h, y_new, p, tmp);
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] += ih * (c61 * k1[i] + c62 * k2[i] + c63 * k3[i] + c64 * k4[i] + c65 * k5[i]);
        e.solve(m, tmp);
        // y_new = y_emb + k6;  err = k6
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            y_new[i] += tmp[i];
        return scaled_error(y, y_new, tmp, n, s);
    }
};

} // namespace bif
