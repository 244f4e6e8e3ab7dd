// What the hand-written stiff kernels (issue 36) share, prepended to each as a part of the same
// program (bench_support.h's load_handwritten): their settings, their per-system outcome, and a
// dense LU with partial pivoting. The LU takes an n x n row-major matrix in a fixed array; every
// loop unrolls and every row exchange is a select over compile-time indices, so that the matrix, the
// pivots and the right-hand sides stay in registers (an index known only at run time, b[piv[k]],
// puts the array in local memory). The pivots' reciprocals are kept, so that a solve multiplies
// where it would divide (a GPU division is a call into a slow path).

// The integration and step control settings (the model's constants are separate arguments); shrink
// is the smallest factor a step changes by (the study's solver.min_shrink).
template <class Real>
struct StiffSettings {
    Real t_end, rtol, atol, h0, min_step, shrink;
    int max_attempts;
};

// The outcome of one system: status 0 ok, 1 step underflow, 2 not finite, 3 step budget spent.
struct StiffCounts {
    unsigned int accepted, rejected, status;
};

// A = P L U in place (unit L below the diagonal, U on and above it, inv[k] = 1 / u_kk); piv[k] is
// the row exchanged with row k at step k. False when a pivot is zero or not finite.
template <int N, class Real>
__device__ __forceinline__ bool hand_lu_factor(Real* a, int* piv, Real* inv) {
    bool ok = true;
#pragma unroll
    for (int k = 0; k < N; ++k) {
        int p = k;
        Real best = fabs(a[k * N + k]);
#pragma unroll
        for (int r = k + 1; r < N; ++r) {
            const Real v = fabs(a[r * N + k]);
            if (v > best) {
                best = v;
                p = r;
            }
        }
        piv[k] = p;
        ok = ok && best > Real(0) && isfinite(best);
#pragma unroll
        for (int r = k + 1; r < N; ++r) {
            const bool swap = r == p;
#pragma unroll
            for (int c = 0; c < N; ++c) {
                const Real top = a[k * N + c], low = a[r * N + c];
                a[k * N + c] = swap ? low : top;
                a[r * N + c] = swap ? top : low;
            }
        }
        inv[k] = Real(1) / a[k * N + k];
#pragma unroll
        for (int r = k + 1; r < N; ++r) {
            const Real l = a[r * N + k] * inv[k];
            a[r * N + k] = l;
#pragma unroll
            for (int c = k + 1; c < N; ++c)
                a[r * N + c] -= l * a[k * N + c];
        }
    }
    return ok;
}

// b = A^-1 b with the factors of hand_lu_factor.
template <int N, class Real>
__device__ __forceinline__ void hand_lu_solve(const Real* a, const int* piv, const Real* inv, Real* b) {
#pragma unroll
    for (int k = 0; k < N; ++k) {
#pragma unroll
        for (int r = k + 1; r < N; ++r) {
            const bool swap = r == piv[k];
            const Real bk = b[k], br = b[r];
            b[k] = swap ? br : bk;
            b[r] = swap ? bk : br;
        }
    }
#pragma unroll
    for (int k = 0; k < N; ++k) {
#pragma unroll
        for (int r = k + 1; r < N; ++r)
            b[r] -= a[r * N + k] * b[k];
    }
#pragma unroll
    for (int r = N - 1; r >= 0; --r) {
        Real s = b[r];
#pragma unroll
        for (int c = r + 1; c < N; ++c)
            s -= a[r * N + c] * b[c];
        b[r] = s * inv[r];
    }
}
