// Step-size selection: the elementary (I) or Gustafsson PI controller and the starting step.
//
//   h_new = h * clamp(safety * err^(-alpha) * err_prev^(beta), max_shrink, max_growth)
//   alpha = 1/(q+1) - 0.75*beta,  q = order of the error estimate
// (Hairer & Wanner, Solving ODEs II, IV.2 eq. (2.43c); with beta = 0 the classic I controller of
// Hairer, Norsett & Wanner I, II.4 eq. (4.13)). After a rejection the next step may not grow.
#pragma once

#include "bif/error_norm.h"
#include "bif/kernel_support.h"
#include "bif/solver_settings.h"

namespace bif {

// x^y to single precision, for the controller's factors: they are heuristics (multiplied by a
// safety factor and clamped), so a few digits serve, and a correctly rounded double pow is about a
// tenth of the instructions of a GPU's adaptive step (Duffing RKCK45: ~100 of ~980). On the GPU the
// intrinsic __powf (exp2(y log2 x) on the special-function units); x lies in [1e-10, 1e30].
template <class Real>
BIF_HD BIF_FORCEINLINE Real controller_pow(Real x, Real y) {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
    return Real(__powf(float(x), float(y)));
#else
    return Real(std::pow(float(x), float(y)));
#endif
}

// Per-system controller memory, carried across calls together with the step size.
template <class Real>
struct StepController {
    Real err_prev = Real(1);
    bool rejected_last = false;
};

// Proposed next step after an accepted step of size h with scaled error err (<= 1).
template <class Real, int N>
BIF_HD Real step_after_accept(StepController<Real>& c, Real h, Real err, int error_order,
                              const SolverSettings<Real, N>& s) {
    const Real e = max_of(err, Real(1e-10));
    Real fac;
    if (s.pi_beta > Real(0)) {
        // fac = safety * err^(-alpha) * err_prev^(beta)
        const Real alpha = Real(1) / Real(error_order + 1) - Real(0.75) * s.pi_beta;
        fac = s.safety * controller_pow(e, -alpha) * controller_pow(c.err_prev, s.pi_beta);
        c.err_prev = max_of(err, Real(1e-4));
    } else {
        // the I controller: a constant exponent, and no memory to keep
        fac = s.safety * controller_pow(e, -Real(1) / Real(error_order + 1));
    }
    fac = min_of(max_of(fac, s.max_shrink), s.max_growth);
    if (c.rejected_last) fac = min_of(fac, Real(1));
    c.rejected_last = false;
    return h * fac;
}

// Retry size after a rejected step (err > 1, or not finite: then shrink as far as allowed).
template <class Real, int N>
BIF_HD Real step_after_reject(StepController<Real>& c, Real h, Real err, int error_order,
                              const SolverSettings<Real, N>& s) {
    c.rejected_last = true;
    if (!m::is_finite(err)) return h * s.max_shrink;
    // fac = safety * err^(-1/(q+1)), bounded below
    const Real fac = s.safety * controller_pow(err, -Real(1) / Real(error_order + 1));
    return h * min_of(max_of(fac, s.max_shrink), Real(1));
}

// Smallest step that still changes t: the user's min_step or 16 ulp of |t|.
template <class Real, int N>
BIF_HD Real min_step_at(Real t, const SolverSettings<Real, N>& s) {
    return max_of(s.min_step, Real(16) * epsilon<Real>() * m::fabs(t));
}

// Starting step (Hairer, Norsett & Wanner I, II.4, "Starting step size"):
//   d0 = ||y0/sc||, d1 = ||f0/sc||, h0 = 0.01 d0/d1, y1 = y0 + h0 f0,
//   d2 = ||(f(t0+h0, y1) - f0)/sc|| / h0, h1 = (0.01/max(d1, d2))^(1/(p+1)), h = min(100 h0, h1).
// One extra right-hand side evaluation; p is the order of the method.
template <class Model, int N>
BIF_HD typename Model::real
starting_step(const Model& m, typename Model::real t, const typename Model::real* y,
              const typename Model::real* p, const typename Model::real* f0, int order,
              typename Model::real span, const SolverSettings<typename Model::real, N>& s) {
    using real = typename Model::real;
    const int n = m.dimension();
    // the three norms share one scale: its reciprocals once, then multiplications (a division on the
    // GPU is a branch into a slow path that ptxas expands at every one)
    real inv_sc[Model::num_states];
    real s0 = real(0), s1 = real(0);
    BIF_UNROLL
    for (int i = 0; i < n; ++i) {
        inv_sc[i] = real(1) / scale_of(y[i], real(0), s.atol[i], s.rtol[i]);
        const real a = y[i] * inv_sc[i], b = f0[i] * inv_sc[i];
        s0 += a * a;
        s1 += b * b;
    }
    const real inv_n = real(1) / real(n);
    const real d0 = m::sqrt(s0 * inv_n);
    const real d1 = m::sqrt(s1 * inv_n);
    real h0 = (d0 < real(1e-5) || d1 < real(1e-5)) ? real(1e-6) : real(0.01) * d0 / d1;
    h0 = min_of(h0, span);
    if (s.max_step > real(0)) h0 = min_of(h0, s.max_step);
    real y1[Model::num_states];
    real f1[Model::num_states];
    BIF_UNROLL
    for (int i = 0; i < n; ++i)
        y1[i] = y[i] + h0 * f0[i];
    m.rhs(t + h0, y1, p, f1);
    real s2 = real(0);
    BIF_UNROLL
    for (int i = 0; i < n; ++i) {
        const real c = (f1[i] - f0[i]) * inv_sc[i];
        s2 += c * c;
    }
    const real d2 = m::sqrt(s2 * inv_n) / h0;
    const real dmax = max_of(d1, d2);
    const real h1 = dmax <= real(1e-15) ? max_of(real(1e-6), h0 * real(1e-3))
                                        : m::pow(real(0.01) / dmax, real(1) / real(order + 1));
    real h = min_of(real(100) * h0, h1);
    if (!m::is_finite(h) || h <= real(0)) h = h0;
    if (s.max_step > real(0)) h = min_of(h, s.max_step);
    return min_of(h, span);
}

} // namespace bif
