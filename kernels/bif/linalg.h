// Dense LU factorisation with partial pivoting for the small linear systems of Rosenbrock
// methods, in fixed-size arrays of capacity N*N holding an n x n matrix (n <= N), row-major with
// row stride n (the model's dimension(), the Jacobian layout of the contract).
//
// Rows are swapped with selects over compile-time row indices instead of indexing with the
// run-time pivot, so that after unrolling the matrix can live in registers. Loops unroll while
// N <= kUnrollLimit; larger systems keep loops (their matrices spill to local memory anyway).
// The unrolled loops run over the fixed range [0, N) and skip the indices outside the triangle
// (detail::lu_from / lu_to): the compiler unrolls inner loops first, and an inner loop whose trip
// count depends on the outer index (r = k + 1 .. n) is unrolled with a run-time remainder that
// the outer unrolling no longer folds, leaving the 8-state HIRES matrix in local memory.
//
// BIF_LU_RECIPROCAL_PIVOTS (a tuning switch, off by default; tests/bench/README.md, stiff kernels):
// the factor keeps 1 / u_kk on the diagonal and a solve multiplies by it, as the hand-written stiff
// kernels do, instead of dividing by u_kk in every solve (a GPU division is a call into a slow path;
// Rodas4 solves six times per factorisation). Results change in the last bits.
#pragma once

#include "bif/kernel_support.h"

namespace bif {

inline constexpr int kUnrollLimit = 12;

namespace detail {
// The bounds of a loop over i = first .. n-1 whose body is guarded by lu_from <= i < n: a
// compile-time range [0, N) where the loops unroll, the exact range otherwise.
template <int N>
BIF_HD constexpr int lu_from(int first) {
    return N <= kUnrollLimit ? 0 : first;
}
template <int N>
BIF_HD constexpr int lu_to(int n) {
    return N <= kUnrollLimit ? N : n;
}
} // namespace detail

// Factors A = P L U in place (unit lower L below the diagonal, U on and above it; with
// BIF_LU_RECIPROCAL_PIVOTS the diagonal holds 1 / u_kk).
// piv[k] is the row exchanged with row k at elimination step k. Returns false when a pivot is
// zero or not finite (a singular or NaN matrix); A is then partially overwritten.
template <int N, class Real>
BIF_HD bool lu_factor(Real* a, int n, int* piv) {
    [[maybe_unused]] constexpr int unroll = N <= kUnrollLimit ? N : 1;
    bool ok = true;
    BIF_UNROLL_IF(unroll)
    for (int k = 0; k < detail::lu_to<N>(n); ++k) {
        if (k >= n) continue;
        // pivot: the largest |a_rk| for r >= k
        int p = k;
        Real best = m::fabs(a[k * n + k]);
        BIF_UNROLL_IF(unroll)
        for (int r = detail::lu_from<N>(k + 1); r < detail::lu_to<N>(n); ++r) {
            if (r <= k || r >= n) continue;
            const Real v = m::fabs(a[r * n + k]);
            if (v > best) {
                best = v;
                p = r;
            }
        }
        piv[k] = p;
        ok = ok && best > Real(0) && m::is_finite(best);
        // swap rows k and p
        BIF_UNROLL_IF(unroll)
        for (int r = detail::lu_from<N>(k + 1); r < detail::lu_to<N>(n); ++r) {
            if (r <= k || r >= n) continue;
            const bool swap = r == p;
            BIF_UNROLL_IF(unroll)
            for (int c = 0; c < detail::lu_to<N>(n); ++c) {
                if (c >= n) continue;
                const Real top = a[k * n + c];
                const Real low = a[r * n + c];
                a[k * n + c] = swap ? low : top;
                a[r * n + c] = swap ? top : low;
            }
        }
        const Real inv = ok ? Real(1) / a[k * n + k] : Real(0);
#if defined(BIF_LU_RECIPROCAL_PIVOTS)
        a[k * n + k] = inv;
#endif
        // l_rk = a_rk / a_kk;  a_rc -= l_rk * a_kc  for r, c > k
        BIF_UNROLL_IF(unroll)
        for (int r = detail::lu_from<N>(k + 1); r < detail::lu_to<N>(n); ++r) {
            if (r <= k || r >= n) continue;
            const Real l = a[r * n + k] * inv;
            a[r * n + k] = l;
            BIF_UNROLL_IF(unroll)
            for (int c = detail::lu_from<N>(k + 1); c < detail::lu_to<N>(n); ++c)
                if (c > k && c < n) a[r * n + c] -= l * a[k * n + c];
        }
    }
    return ok;
}

// Solves A x = b with the factors of lu_factor; b is overwritten with x.
template <int N, class Real>
BIF_HD void lu_solve(const Real* a, int n, const int* piv, Real* b) {
    [[maybe_unused]] constexpr int unroll = N <= kUnrollLimit ? N : 1;
    // b = P b: the row exchanges in the order they were made (the stored L is in final row order)
    BIF_UNROLL_IF(unroll)
    for (int k = 0; k < detail::lu_to<N>(n); ++k) {
        if (k >= n) continue;
        const int p = piv[k];
        BIF_UNROLL_IF(unroll)
        for (int r = detail::lu_from<N>(k + 1); r < detail::lu_to<N>(n); ++r) {
            if (r <= k || r >= n) continue;
            const bool swap = r == p;
            const Real bk = b[k];
            const Real br = b[r];
            b[k] = swap ? br : bk;
            b[r] = swap ? bk : br;
        }
    }
    // forward substitution with unit L: b_r -= l_rk b_k
    BIF_UNROLL_IF(unroll)
    for (int k = 0; k < detail::lu_to<N>(n); ++k) {
        BIF_UNROLL_IF(unroll)
        for (int r = detail::lu_from<N>(k + 1); r < detail::lu_to<N>(n); ++r)
            if (r > k && r < n) b[r] -= a[r * n + k] * b[k];
    }
    // back substitution: x_r = (b_r - sum_{c>r} u_rc x_c) / u_rr
    BIF_UNROLL_IF(unroll)
    for (int r = detail::lu_to<N>(n) - 1; r >= 0; --r) {
        if (r >= n) continue;
        Real s = b[r];
        BIF_UNROLL_IF(unroll)
        for (int c = detail::lu_from<N>(r + 1); c < detail::lu_to<N>(n); ++c)
            if (c > r && c < n) s -= a[r * n + c] * b[c];
#if defined(BIF_LU_RECIPROCAL_PIVOTS)
        b[r] = s * a[r * n + r];
#else
        b[r] = s / a[r * n + r];
#endif
    }
}

} // namespace bif
