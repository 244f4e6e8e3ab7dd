// Second-order Runge-Kutta-Chebyshev (RKC) for moderately stiff problems whose Jacobian has
// eigenvalues near the negative real axis. B. P. Sommeijer, L. F. Shampine, J. G. Verwer,
// J. Comput. Appl. Math. 88 (1997) 315-326; coefficients as written out by Niemeyer & Sung (2014),
// eqs. (13)-(24), with b_0 = b_1 = b_2 and damping eps = 2/13:
//   w0 = 1 + eps/s^2,  w1 = T_s'(w0) / T_s''(w0),  b_j = T_j''(w0) / T_j'(w0)^2,  a_j = 1 - b_j T_j(w0)
//   Y_0 = y_n,  Y_1 = Y_0 + mu~_1 h F_0,  mu~_1 = b_1 w1
//   Y_j = (1 - mu_j - nu_j) Y_0 + mu_j Y_{j-1} + nu_j Y_{j-2} + mu~_j h F_{j-1} + gamma~_j h F_0
//   mu_j = 2 w0 b_j / b_{j-1},  nu_j = -b_j / b_{j-2},  mu~_j = 2 w1 b_j / b_{j-1},  gamma~_j = -a_{j-1}
//   mu~_j c_j = mu_j c_{j-1} + nu_j c_{j-2} + mu~_j (1 - a_{j-1})    (c_0 = 0, c_1 = mu~_1, c_s = 1) y_{n+1}
//   = Y_s
// Stage count s = 1 + sqrt(1 + 1.54 h rho) (at least 2); when it would exceed MaxStages the step is
// shortened to h = (MaxStages^2 - 1) / (1.54 rho). The spectral radius rho is estimated by the
// nonlinear power method of Sommeijer et al. (no Jacobian), again every 25 steps or after a
// rejection. Local error estimate (eq. 24): 0.8 (y_n - y_{n+1}) + 0.4 h (F_n + F_{n+1}), O(h^3),
// measured in the settings' norm (RMS by default, as in RKC). FSAL: F_{n+1} is the next F_n.
// Dense output: cubic Hermite. Interface: see rk4.h.
#pragma once

#include "bif/error_norm.h"
#include "bif/steppers/endpoint_derivatives.h"

namespace bif {

template <class Model, int MaxStages = 512>
struct Rkc : EndpointDerivatives<Model, true> {
    using Base = EndpointDerivatives<Model, true>;
    using Base::f0, Base::f1, Base::N;
    using typename Base::real;
    static constexpr int order = 2;
    static constexpr int error_order = 2;
    static constexpr int max_stages = MaxStages;
    static constexpr int rho_interval = 25;

    real v[N] = {};           // dominant direction of the last power iteration (a difference to y)
    real rho = real(0);       // spectral radius estimate, 1.2 * ||J v|| / ||v||
    int steps_since_rho = -1; // < 0: estimate before the next attempt
    bool has_direction = false;
    int last_stages = 0;

    BIF_HD bool start(const Model& m, real t, const real* y, const real* p) {
        steps_since_rho = -1;
        return Base::start(m, t, y, p);
    }

    template <class Settings>
    BIF_HD real attempt(const Model& m, real t, const real* y, const real* p, real& h, real* y_new,
                        const Settings& s) {
        const int n = m.dimension();
        if (steps_since_rho < 0 || steps_since_rho >= rho_interval) {
            rho = spectral_radius(m, t, y, p);
            steps_since_rho = 0;
        }
        // s = 1 + sqrt(1 + 1.54 h rho), shortening h where s would exceed MaxStages
        if (!m::is_finite(rho)) rho = real(0);
        const real wanted = real(1) + m::sqrt(real(1) + real(1.54) * h * rho);
        int stages = MaxStages;
        if (wanted >= real(MaxStages))
            h = real(MaxStages * MaxStages - 1) / (real(1.54) * rho);
        else
            stages = wanted < real(2) ? 2 : int(wanted);
        last_stages = stages;
        chebyshev_stages(m, t, y, p, h, stages, y_new);
        m.rhs(t + h, y_new, p, f1);
        real est[N];
        // est = 0.8 (y_n - y_{n+1}) + 0.4 h (F_n + F_{n+1})
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            est[i] = real(0.8) * (y[i] - y_new[i]) + real(0.4) * h * (f0[i] + f1[i]);
        return scaled_error(y, y_new, est, n, s);
    }

    BIF_HD void reject() { steps_since_rho = -1; }

    BIF_HD void accept(const Model&, real, const real*, const real*, real, const real*) { ++steps_since_rho; }

  private:
    // The recursion above, with Y_{j-1}, Y_{j-2} kept in two arrays; y_new receives Y_s.
    BIF_HD void chebyshev_stages(const Model& m, real t, const real* y, const real* p, real h, int stages,
                                 real* y_new) const {
        const int n = m.dimension();
        const real sr = real(stages);
        const real w0 = real(1) + real(2.0 / 13.0) / (sr * sr);
        // w1 = T_s'(w0)/T_s''(w0) in closed form with theta = acosh(w0):
        //   w1 = sinh(s theta) sinh(theta)^2 / (s cosh(s theta) sinh(theta) - sinh(s theta) cosh(theta))
        const real sh2 = w0 * w0 - real(1);
        const real sh = m::sqrt(sh2);
        const real arg = sr * m::log(w0 + sh);
        const real w1 = m::sinh(arg) * sh2 / (m::cosh(arg) * sr * sh - w0 * m::sinh(arg));
        // Chebyshev values T_j, T_j', T_j'' at w0 for j-1 and j-2, starting from j = 1
        real tm1 = w0, tm2 = real(1), dtm1 = real(1), dtm2 = real(0), d2tm1 = real(0), d2tm2 = real(0);
        real bm1 = real(1) / (real(4) * w0 * w0); // b_1 = b_2 = T_2''/T_2'^2 = 1/(4 w0^2)
        real bm2 = bm1;
        real ym1[N], ym2[N], f[N];
        const real mu1 = w1 * bm1;
        // Y_1 = y + mu~_1 h F_0
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            ym2[i] = y[i];
            ym1[i] = y[i] + mu1 * h * f0[i];
        }
        real cm1 = mu1, cm2 = real(0);
        for (int j = 2; j <= stages; ++j) {
            const real tj = real(2) * w0 * tm1 - tm2;
            const real dtj = real(2) * w0 * dtm1 - dtm2 + real(2) * tm1;
            const real d2tj = real(2) * w0 * d2tm1 - d2tm2 + real(4) * dtm1;
            const real bj = d2tj / (dtj * dtj);
            const real am1 = real(1) - tm1 * bm1;
            const real mu = real(2) * w0 * bj / bm1;
            const real nu = -bj / bm2;
            const real mus = mu * w1 / w0;
            m.rhs(t + cm1 * h, ym1, p, f);
            // Y_j = (1 - mu - nu) y + mu Y_{j-1} + nu Y_{j-2} + mu~ h (F_{j-1} - a_{j-1} F_0)
            BIF_UNROLL
            for (int i = 0; i < n; ++i) {
                const real yj =
                    (real(1) - mu - nu) * y[i] + mu * ym1[i] + nu * ym2[i] + mus * h * (f[i] - am1 * f0[i]);
                ym2[i] = ym1[i];
                ym1[i] = yj;
            }
            const real cj = mu * cm1 + nu * cm2 + mus * (real(1) - am1);
            cm2 = cm1;
            cm1 = cj;
            tm2 = tm1;
            tm1 = tj;
            dtm2 = dtm1;
            dtm1 = dtj;
            d2tm2 = d2tm1;
            d2tm1 = d2tj;
            bm2 = bm1;
            bm1 = bj;
        }
        copy_n(ym1, n, y_new);
    }

    // Nonlinear power method (Sommeijer, Shampine & Verwer 1997, RKC's spectral-radius estimate):
    // perturb y by a vector z of small norm delta and iterate z <- (f(y + z) - f(y)) * delta/||.||,
    // so that ||f(y + z) - f(y)|| / delta tends to the largest |eigenvalue| of J(y); stop when two
    // successive estimates agree to 1 %. The last direction seeds the next estimate.
    BIF_HD real spectral_radius(const Model& m, real t, const real* y, const real* p) {
        const int n = m.dimension();
        const real sqrt_u = m::sqrt(epsilon<real>());
        real ynorm = real(0), vnorm = real(0);
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            ynorm += y[i] * y[i];
            vnorm += has_direction ? v[i] * v[i] : f0[i] * f0[i];
        }
        ynorm = m::sqrt(ynorm);
        vnorm = m::sqrt(vnorm);
        const real delta = ynorm > real(0) ? ynorm * sqrt_u : sqrt_u;
        real z[N], fz[N];
        // z = y + delta * v/||v||  (v = previous direction or f0; a fixed vector if both vanish)
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            const real dir =
                vnorm > real(0) ? (has_direction ? v[i] : f0[i]) / vnorm : real(1) / m::sqrt(real(n));
            z[i] = y[i] + delta * dir;
        }
        real sigma = real(0);
        for (int iter = 1; iter <= 50; ++iter) {
            m.rhs(t, z, p, fz);
            real dnorm = real(0);
            BIF_UNROLL
            for (int i = 0; i < n; ++i)
                dnorm += (fz[i] - f0[i]) * (fz[i] - f0[i]);
            dnorm = m::sqrt(dnorm);
            const real previous = sigma;
            sigma = dnorm / delta;
            const bool converged = iter >= 2 && m::fabs(sigma - previous) <= real(0.01) * sigma;
            if (dnorm > real(0)) {
                // z = y + (f(z) - f(y)) * delta/||f(z) - f(y)||
                BIF_UNROLL
                for (int i = 0; i < n; ++i)
                    z[i] = y[i] + (fz[i] - f0[i]) * (delta / dnorm);
            } else {
                // no change along z: flip one component of the perturbation
                const int flip = iter % n;
                BIF_UNROLL
                for (int i = 0; i < n; ++i)
                    z[i] = i == flip ? y[i] - (z[i] - y[i]) : z[i];
            }
            if (converged || !m::is_finite(sigma)) break;
        }
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            v[i] = z[i] - y[i];
        has_direction = true;
        return real(1.2) * sigma;
    }
};

} // namespace bif
