// The scaled error of an embedded pair (Hairer, Norsett & Wanner I, eq. II.4.11; MPGOS and
// Niemeyer & Sung use the same scale): sc_i = atol_i + rtol_i * max(|y_i|, |y_new_i|), and the
// step is acceptable when norm(err_i / sc_i) <= 1.
#pragma once

#include "bif/kernel_support.h"
#include "bif/solver_settings.h"

namespace bif {

// sc_i = atol_i + rtol_i * max(|y_i|, |y_new_i|)
template <class Real>
BIF_HD BIF_FORCEINLINE Real scale_of(Real y, Real y_new, Real atol, Real rtol) {
    return atol + rtol * max_of(m::fabs(y), m::fabs(y_new));
}

template <class Real, int N>
BIF_HD BIF_FORCEINLINE Real scaled_error(const Real* y, const Real* y_new, const Real* err, int n,
                                         const SolverSettings<Real, N>& s, ErrorNorm norm) {
    // the two norms on branches of their own (the norm is the same for every system): the RMS norm
    // of a step does not pay for the largest component's tests, a few instructions per component
    Real sum = Real(0);
    if (norm == ErrorNorm::Max) {
        Real largest = Real(0);
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            const Real r = err[i] / scale_of(y[i], y_new[i], s.atol[i], s.rtol[i]);
            sum += r * r;
            largest = max_of(largest, m::fabs(r));
        }
        // NaN compares false in max_of: it is carried in the sum, so that the caller sees it
        return m::is_finite(sum) ? largest : sum;
    }
    BIF_UNROLL
    for (int i = 0; i < n; ++i) {
        const Real r = err[i] / scale_of(y[i], y_new[i], s.atol[i], s.rtol[i]);
        sum += r * r;
    }
    // n is the model's constant dimension: 1/n folds, and the GPU's division (a branch into a slow
    // path that ptxas expands at every copy of the norm) becomes one multiplication
    return m::sqrt(sum * (Real(1) / Real(n)));
}

template <class Real, int N>
BIF_HD BIF_FORCEINLINE Real scaled_error(const Real* y, const Real* y_new, const Real* err, int n,
                                         const SolverSettings<Real, N>& s) {
    return scaled_error(y, y_new, err, n, s, s.norm);
}

} // namespace bif
