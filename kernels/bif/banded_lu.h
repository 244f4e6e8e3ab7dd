// Banded LU factorisation with partial pivoting for the iteration matrices of Rosenbrock methods
// on models whose Jacobian is banded (method-of-lines chains): O(n kl (kl + ku)) work and
// O(n (2 kl + ku + 1)) storage instead of the dense O(n^3) and n^2.
//
// Storage follows LAPACK's dgbtrf: an n x n matrix with kl sub- and ku superdiagonals lives in
// band_rows(kl, ku) = 2 kl + ku + 1 rows per column, column-major, A(i, j) at
// band_index(i, j, kl, ku) = j * (2 kl + ku + 1) + kl + ku + i - j. The first kl rows of each column
// hold the fill-in that row exchanges bring into U (its upper bandwidth grows to kl + ku);
// band_lu_factor clears them itself, so the caller fills only the band.
//
// The algorithm is the unblocked band elimination of Golub & Van Loan, Matrix Computations, 4th ed.,
// Sect. 4.3.5 (band Gaussian elimination with partial pivoting), the order of LAPACK's dgbtf2.
//
// The loops over the columns stay loops on the GPU (BIF_ROLLED): n is a compile-time constant there,
// and NVVM unrolled them fully on its own, a copy of the elimination per column at each of a
// Rosenbrock step's solves (the banded code was 2274 of a 20-state chain's 5177 step-kernel
// instructions); the short loops within the band still unroll.
#pragma once

#include "bif/kernel_support.h"

namespace bif {

// Rows per column of the band storage of an n x n matrix with kl sub- and ku superdiagonals.
BIF_HD constexpr int band_rows(int kl, int ku) {
    return 2 * kl + ku + 1;
}

// Where A(i, j) lives in the band storage (|i - j| within the band, or j - i <= kl + ku after
// factoring).
BIF_HD constexpr int band_index(int i, int j, int kl, int ku) {
    return j * band_rows(kl, ku) + kl + ku + i - j;
}

// Factors A = P L U in place. piv[j] is the row exchanged with row j at step j. Returns false when
// a pivot is zero or not finite (a singular or NaN matrix); ab is then partially overwritten.
template <class Real>
BIF_HD bool band_lu_factor(Real* ab, int n, int kl, int ku, int* piv) {
    const int ld = band_rows(kl, ku);
    const int kv = kl + ku;
    BIF_ROLLED
    for (int j = 0; j < n; ++j) {
        for (int r = 0; r < kl; ++r)
            ab[j * ld + r] = Real(0);
    }
    int last_column = 0; // the rightmost column that row exchanges so far have touched
    BIF_ROLLED
    for (int j = 0; j < n; ++j) {
        const int below = min_of(kl, n - 1 - j);
        // pivot: the largest |a_rj| for j <= r <= j + below
        int p = 0;
        Real best = m::fabs(ab[j * ld + kv]);
        for (int r = 1; r <= below; ++r) {
            const Real v = m::fabs(ab[j * ld + kv + r]);
            if (v > best) {
                best = v;
                p = r;
            }
        }
        piv[j] = j + p;
        if (!(best > Real(0)) || !m::is_finite(best)) return false;
        last_column = max_of(last_column, min_of(j + ku + p, n - 1));
        // swap rows j and j + p in columns j..last_column
        if (p != 0) {
            for (int c = j; c <= last_column; ++c) {
                Real& top = ab[band_index(j, c, kl, ku)];
                Real& low = ab[band_index(j + p, c, kl, ku)];
                const Real swap = top;
                top = low;
                low = swap;
            }
        }
        // l_rj = a_rj / a_jj;  a_rc -= l_rj * a_jc  for j < r <= j + below, j < c <= last_column
        const Real inv = Real(1) / ab[j * ld + kv];
        for (int r = 1; r <= below; ++r)
            ab[j * ld + kv + r] *= inv;
        for (int c = j + 1; c <= last_column; ++c) {
            const Real ujc = ab[band_index(j, c, kl, ku)];
            for (int r = 1; r <= below; ++r)
                ab[band_index(j + r, c, kl, ku)] -= ab[j * ld + kv + r] * ujc;
        }
    }
    return true;
}

// Solves A x = b with the factors of band_lu_factor; b is overwritten with x.
template <class Real>
BIF_HD void band_lu_solve(const Real* ab, int n, int kl, int ku, const int* piv, Real* b) {
    const int ld = band_rows(kl, ku);
    const int kv = kl + ku;
    // L y = P b, the exchanges interleaved with the elimination as they were made:
    // b_{j+r} -= l_{j+r,j} b_j
    BIF_ROLLED
    for (int j = 0; j < n - 1; ++j) {
        const int p = piv[j];
        if (p != j) {
            const Real swap = b[j];
            b[j] = b[p];
            b[p] = swap;
        }
        const int below = min_of(kl, n - 1 - j);
        for (int r = 1; r <= below; ++r)
            b[j + r] -= ab[j * ld + kv + r] * b[j];
    }
    // U x = y, U with upper bandwidth kl + ku: x_i = (y_i - sum_{i<c<=i+kv} u_ic x_c) / u_ii
    BIF_ROLLED
    for (int i = n - 1; i >= 0; --i) {
        Real s = b[i];
        const int end = min_of(n - 1, i + kv);
        for (int c = i + 1; c <= end; ++c)
            s -= ab[band_index(i, c, kl, ku)] * b[c];
        b[i] = s / ab[i * ld + kv];
    }
}

} // namespace bif
