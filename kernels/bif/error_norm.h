// The scaled error of an embedded pair (Hairer, Norsett & Wanner I, eq. II.4.11; MPGOS and
// Niemeyer & Sung use the same scale): sc_i = atol_i + rtol_i * max(|y_i|, |y_new_i|), and the
// step is acceptable when norm(err_i / sc_i) <= 1.
#pragma once

#include "bif/kernel_support.h"
#include "bif/solver_settings.h"

namespace bif {

template <class Real, int N>
BIF_HD BIF_FORCEINLINE Real scaled_error(const Real* y, const Real* y_new, const Real* err, int n,
                                         const SolverSettings<Real, N>& s, ErrorNorm norm) {
    Real sum = Real(0);
    Real largest = Real(0);
    BIF_UNROLL
    for (int i = 0; i < n; ++i) {
        // sc_i = atol_i + rtol_i * max(|y_i|, |y_new_i|)
        const Real sc = s.atol[i] + s.rtol[i] * max_of(m::fabs(y[i]), m::fabs(y_new[i]));
        const Real r = err[i] / sc;
        sum += r * r;
        largest = max_of(largest, m::fabs(r));
        // NaN compares false in max_of: carry it into the sum so that the caller sees it
    }
    if (norm == ErrorNorm::Max) return m::is_finite(sum) ? largest : sum;
    return m::sqrt(sum / Real(n));
}

template <class Real, int N>
BIF_HD BIF_FORCEINLINE Real scaled_error(const Real* y, const Real* y_new, const Real* err, int n,
                                         const SolverSettings<Real, N>& s) {
    return scaled_error(y, y_new, err, n, s, s.norm);
}

} // namespace bif
