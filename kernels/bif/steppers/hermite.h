// Cubic Hermite interpolation inside one step from y_n, y_{n+1}, f_n, f_{n+1} (third order,
// local error O(h^4)); the dense output of every stepper here except DOPRI5. In the form of
// Hairer, Norsett & Wanner I, II.6 eq. (6.7):
//   u(theta) = y0 + theta (y1 - y0) + theta (theta - 1) ((1 - 2 theta)(y1 - y0) + (theta - 1) h f0 + theta h
//   f1)
#pragma once

#include "bif/kernel_support.h"

namespace bif {

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

} // namespace bif
