// The iteration matrix M = alpha I - beta J of a Rosenbrock step, factored once per attempt and
// solved once per stage: dense (linalg.h) for most models, banded (banded_lu.h) for models whose
// generated code provides a banded Jacobian (ProvidesBandedJacobian: the code generator emits one
// only where the band is narrow relative to the dimension, see engine/codegen). The banded form
// keeps storage at n (2 kl + ku + 1) instead of n^2: 32 kB instead of 8 MB for a tridiagonal
// 1000-state chain.
#pragma once

#include "bif/banded_lu.h"
#include "bif/linalg.h"

namespace bif {

namespace detail {
template <class M, class = void>
struct banded_jacobian_of {
    static constexpr bool provided = false;
    static constexpr int lower = M::num_states - 1, upper = M::num_states - 1;
};
template <class M>
struct banded_jacobian_of<M, decltype(void(M::jacobian_lower_band), void(M::jacobian_upper_band),
                                      void(&M::jacobian_band))> {
    static constexpr bool provided = true;
    static constexpr int lower = M::jacobian_lower_band, upper = M::jacobian_upper_band;
};
} // namespace detail

// Models that provide, besides the dense jacobian of model_contract.h,
//   static constexpr int jacobian_lower_band, jacobian_upper_band;   // kl, ku
//   BIF_HD static void jacobian_band(real t, const real* y, const real* p, real* B);
// writing J(i, j) at band_index(i, j, kl, ku) (banded_lu.h) and zeros elsewhere in the band.
template <class M>
inline constexpr bool ProvidesBandedJacobian = detail::banded_jacobian_of<M>::provided;

template <class Model, bool Banded = ProvidesBandedJacobian<Model>>
struct IterationMatrix;

// Dense: row-major n x n, the Jacobian layout of the contract.
template <class Model>
struct IterationMatrix<Model, false> {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    real a[N * N];
    int piv[N];

    // M = alpha I - beta J(t, y); false when M is singular.
    BIF_HD bool factor(const Model& m, real t, const real* y, const real* p, real alpha, real beta) {
        const int n = m.dimension();
        m.jacobian(t, y, p, a);
        BIF_UNROLL
        for (int i = 0; i < n; ++i) {
            BIF_UNROLL
            for (int j = 0; j < n; ++j)
                a[i * n + j] = (i == j ? alpha : real(0)) - beta * a[i * n + j];
        }
        return lu_factor<N>(a, n, piv);
    }
    // b = M^-1 b
    BIF_HD void solve(const Model& m, real* b) const { lu_solve<N>(a, m.dimension(), piv, b); }
};

// Banded: LAPACK band storage of band_rows(kl, ku) rows per column.
template <class Model>
struct IterationMatrix<Model, true> {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    static constexpr int kl = detail::banded_jacobian_of<Model>::lower;
    static constexpr int ku = detail::banded_jacobian_of<Model>::upper;
    static constexpr int rows = band_rows(kl, ku);
    real a[rows * N];
    int piv[N];

    BIF_HD bool factor(const Model& m, real t, const real* y, const real* p, real alpha, real beta) {
        const int n = m.dimension();
        m.jacobian_band(t, y, p, a);
        // the band rows kl .. rows-1 hold J; the fill rows above are cleared by band_lu_factor
        BIF_ROLLED
        for (int j = 0; j < n; ++j) {
            for (int r = kl; r < rows; ++r)
                a[j * rows + r] *= -beta;
            a[band_index(j, j, kl, ku)] += alpha;
        }
        return band_lu_factor(a, n, kl, ku, piv);
    }
    BIF_HD void solve(const Model& m, real* b) const { band_lu_solve(a, m.dimension(), kl, ku, piv, b); }
};

} // namespace bif
