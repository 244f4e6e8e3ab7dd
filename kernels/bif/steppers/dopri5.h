// Dormand-Prince 5(4), FSAL, adaptive, with Hairer's fourth-order dense output.
// Tableau: J. R. Dormand and P. J. Prince, J. Comput. Appl. Math. 6 (1980) 19-26, Table 2
// (also Hairer, Norsett & Wanner I, II.5 Table 5.2):
//   c  = (0, 1/5, 3/10, 4/5, 8/9, 1, 1)
//   a2 = (1/5)
//   a3 = (3/40, 9/40)
//   a4 = (44/45, -56/15, 32/9)
//   a5 = (19372/6561, -25360/2187, 64448/6561, -212/729)
//   a6 = (9017/3168, -355/33, 46732/5247, 49/176, -5103/18656)
//   a7 = b = (35/384, 0, 500/1113, 125/192, -2187/6784, 11/84)      (fifth order, propagated)
//   b* = (5179/57600, 0, 7571/16695, 393/640, -92097/339200, 187/2100, 1/40)   (fourth order)
// The seventh stage is f(t+h, y_new): the first stage of the next step (FSAL).
// Dense output (Hairer, Norsett & Wanner I, II.6, and Hairer's DOPRI5 code, CONTD5):
//   u(theta) = y0 + theta (r1 + (1 - theta)(r2 + theta (r3 + (1 - theta) r4)))
//   r1 = y1 - y0, r2 = h f0 - r1, r3 = r1 - h f1 - r2, r4 = h sum_i d_i k_i with
//   d = (-12715105075/11282082432, 0, 87487479700/32700410799, -10690763975/1880347072,
//        701980252875/199316789632, -1453857185/822651844, 69997945/29380423).
// Interface: see rk4.h.
#pragma once

#include "bif/error_norm.h"
#include "bif/kernel_support.h"

namespace bif {

template <class Model>
struct Dopri5 {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int order = 5;
    static constexpr int error_order = 4;

    bool ready = false;
    real f0[N] = {};    // k1 = f(t_n, y_n)
    real f1[N] = {};    // k7 = f(t_n + h, y_new) of the last attempt
    real dense[N] = {}; // r4 / h of the last attempt: sum_i d_i k_i

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
        constexpr real a41 = real(44.0 / 45.0), a42 = real(-56.0 / 15.0), a43 = real(32.0 / 9.0);
        constexpr real a51 = real(19372.0 / 6561.0), a52 = real(-25360.0 / 2187.0),
                       a53 = real(64448.0 / 6561.0), a54 = real(-212.0 / 729.0);
        constexpr real a61 = real(9017.0 / 3168.0), a62 = real(-355.0 / 33.0), a63 = real(46732.0 / 5247.0),
                       a64 = real(49.0 / 176.0), a65 = real(-5103.0 / 18656.0);
        constexpr real b1 = real(35.0 / 384.0), b3 = real(500.0 / 1113.0), b4 = real(125.0 / 192.0),
                       b5 = real(-2187.0 / 6784.0), b6 = real(11.0 / 84.0);
        // e = b - b*
        constexpr real e1 = real(71.0 / 57600.0), e3 = real(-71.0 / 16695.0), e4 = real(71.0 / 1920.0),
                       e5 = real(-17253.0 / 339200.0), e6 = real(22.0 / 525.0), e7 = real(-1.0 / 40.0);
        constexpr real d1 = real(-12715105075.0 / 11282082432.0), d3 = real(87487479700.0 / 32700410799.0),
                       d4 = real(-10690763975.0 / 1880347072.0), d5 = real(701980252875.0 / 199316789632.0),
                       d6 = real(-1453857185.0 / 822651844.0), d7 = real(69997945.0 / 29380423.0);
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
        m.rhs(t + real(0.8) * h, tmp, p, k4);
        // tmp = y + h (a51 k1 + a52 k2 + a53 k3 + a54 k4)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + h * (a51 * f0[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
        m.rhs(t + real(8.0 / 9.0) * h, tmp, p, k5);
        // tmp = y + h (a61 k1 + ... + a65 k5)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            tmp[i] = y[i] + h * (a61 * f0[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
        m.rhs(t + h, tmp, p, k6);
        // y_new = y + h (b1 k1 + b3 k3 + b4 k4 + b5 k5 + b6 k6);  k7 = f(t + h, y_new)
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            y_new[i] = y[i] + h * (b1 * f0[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
        m.rhs(t + h, y_new, p, f1);
        // err = h (e1 k1 + e3 k3 + e4 k4 + e5 k5 + e6 k6 + e7 k7);  dense = sum d_i k_i
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            tmp[i] = h * (e1 * f0[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * f1[i]);
            dense[i] = d1 * f0[i] + d3 * k3[i] + d4 * k4[i] + d5 * k5[i] + d6 * k6[i] + d7 * f1[i];
        }
        return scaled_error(y, y_new, tmp, n, s);
    }

    BIF_HD void reject() {}

    BIF_HD void accept(const Model&, real, const real*, const real*, real, const real*) {}

    BIF_HD void state_at(real theta, real h, const real* y0, const real* y1, int n, real* out) const {
        const real u = real(1) - theta;
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            const real r1 = y1[i] - y0[i];
            const real r2 = h * f0[i] - r1;
            const real r3 = r1 - h * f1[i] - r2;
            const real r4 = h * dense[i];
            out[i] = y0[i] + theta * (r1 + u * (r2 + theta * (r3 + u * r4)));
        }
    }

    BIF_HD void advance(int n) { copy_n(f1, n, f0); }
};

} // namespace bif
