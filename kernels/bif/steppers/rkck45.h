// Cash-Karp embedded Runge-Kutta 4(5), adaptive; the solution is propagated with the fifth-order
// weights, the difference to the fourth-order ones is the error estimate (as in MPGOS and in
// Niemeyer & Sung's RKCK). Tableau: J. R. Cash and A. H. Karp, ACM TOMS 16 (1990) 201-222, Table 5:
//   c  = (0, 1/5, 3/10, 3/5, 1, 7/8)
//   a2 = (1/5)
//   a3 = (3/40, 9/40)
//   a4 = (3/10, -9/10, 6/5)
//   a5 = (-11/54, 5/2, -70/27, 35/27)
//   a6 = (1631/55296, 175/512, 575/13824, 44275/110592, 253/4096)
//   b5 = (37/378, 0, 250/621, 125/594, 0, 512/1771)
//   b4 = (2825/27648, 0, 18575/48384, 13525/55296, 277/14336, 1/4)
// Not FSAL: accept() evaluates f(t_{n+1}, y_{n+1}), which is the next step's first stage, so a
// step still costs six evaluations. Dense output: cubic Hermite. Interface: see rk4.h.
#pragma once

#include "bif/error_norm.h"
#include "bif/kernel_support.h"
#include "bif/steppers/hermite.h"

namespace bif {

template <class Model>
struct Rkck45 {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int order = 5;
    static constexpr int error_order = 4;

    bool ready = false;
    real f0[N] = {};
    real f1[N] = {};

    BIF_HD bool start(const Model& m, real t, const real* y, const real* p) {
        m.rhs(t, y, p, f0);
        ready = true;
        return all_finite(f0, m.dimension());
    }

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings& s) {
        constexpr real a21 = real(1.0 / 5.0);
        constexpr real a31 = real(3.0 / 40.0), a32 = real(9.0 / 40.0);
        constexpr real a41 = real(3.0 / 10.0), a42 = real(-9.0 / 10.0), a43 = real(6.0 / 5.0);
        constexpr real a51 = real(-11.0 / 54.0), a52 = real(5.0 / 2.0), a53 = real(-70.0 / 27.0),
                       a54 = real(35.0 / 27.0);
        constexpr real a61 = real(1631.0 / 55296.0), a62 = real(175.0 / 512.0), a63 = real(575.0 / 13824.0),
                       a64 = real(44275.0 / 110592.0), a65 = real(253.0 / 4096.0);
        constexpr real b1 = real(37.0 / 378.0), b3 = real(250.0 / 621.0), b4 = real(125.0 / 594.0),
                       b6 = real(512.0 / 1771.0);
        // e = b5 - b4 (error weights)
        constexpr real e1 = real(37.0 / 378.0 - 2825.0 / 27648.0),
                       e3 = real(250.0 / 621.0 - 18575.0 / 48384.0),
                       e4 = real(125.0 / 594.0 - 13525.0 / 55296.0), e5 = real(-277.0 / 14336.0),
                       e6 = real(512.0 / 1771.0 - 1.0 / 4.0);
        const int n = m.dimension();
        real k2[N], k3[N], k4[N], k5[N], k6[N], tmp[N];
        // tmp = y + h a21 k1
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + h * a21 * f0[i];
        m.rhs(t + real(0.2) * h, tmp, p, k2);
        // tmp = y + h (a31 k1 + a32 k2)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + h * (a31 * f0[i] + a32 * k2[i]);
        m.rhs(t + real(0.3) * h, tmp, p, k3);
        // tmp = y + h (a41 k1 + a42 k2 + a43 k3)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + h * (a41 * f0[i] + a42 * k2[i] + a43 * k3[i]);
        m.rhs(t + real(0.6) * h, tmp, p, k4);
        // tmp = y + h (a51 k1 + a52 k2 + a53 k3 + a54 k4)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + h * (a51 * f0[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
        m.rhs(t + h, tmp, p, k5);
        // tmp = y + h (a61 k1 + a62 k2 + a63 k3 + a64 k4 + a65 k5)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + h * (a61 * f0[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
        m.rhs(t + real(0.875) * h, tmp, p, k6);
        // y_new = y + h (b1 k1 + b3 k3 + b4 k4 + b6 k6);  err = h (e1 k1 + e3 k3 + e4 k4 + e5 k5 + e6 k6)
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            y_new[i] = y[i] + h * (b1 * f0[i] + b3 * k3[i] + b4 * k4[i] + b6 * k6[i]);
            tmp[i] = h * (e1 * f0[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i]);
        }
        return scaled_error(y, y_new, tmp, n, s);
    }

    BIF_HD void reject() {}

    BIF_HD void accept(const Model& m, real t, const real*, const real* p, real h, const real* y_new) {
        m.rhs(t + h, y_new, p, f1);
    }

    BIF_HD void state_at(real theta, real h, const real* y0, const real* y1, int n, real* out) const {
        hermite_interpolate(theta, h, y0, y1, f0, f1, n, out);
    }

    BIF_HD void advance(int n) { copy_n(f1, n, f0); }
};

} // namespace bif
