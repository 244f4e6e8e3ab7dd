// The period of a recorded sequence of section points (map and basins): the smallest p in
// [1, max_period] such that every point matches the one p rows later, each component within
// tolerance * (1 + |value|) (a max norm relative to the magnitude). At least two full cycles must
// have been recorded (rows >= 2p), so a period is never guessed from one repetition. 0: none found
// (chaotic, quasi-periodic, or longer than max_period or half the record).
#pragma once

#include "bif/kernel_support.h"
#include "bif/study/view.h"

namespace bif::ensemble {

template <class Real>
BIF_HD bool section_points_match(const View<Real>& v, index_t system, int row_a, int row_b, int n, Real tol) {
    for (int i = 0; i < n; ++i) {
        const Real a = v.point(system, row_a, i), b = v.point(system, row_b, i);
        if (!(abs_of(a - b) <= tol * (Real(1) + abs_of(a)))) return false;
    }
    return true;
}

template <class Real>
BIF_HD int detect_period(const View<Real>& v, index_t system, int rows, int n, Real tol, int max_period) {
    for (int p = 1; p <= max_period && 2 * p <= rows; ++p) {
        bool periodic = true;
        for (int r = 0; r + p < rows && periodic; ++r)
            periodic = section_points_match(v, system, r, r + p, n, tol);
        if (periodic) return p;
    }
    return 0;
}

} // namespace bif::ensemble
