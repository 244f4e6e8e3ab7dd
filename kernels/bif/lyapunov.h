// Lyapunov exponents by the standard method of Benettin et al. (Meccanica 15, 1980) and Shimada &
// Nagashima (Prog. Theor. Phys. 61, 1979): integrate y together with K tangent vectors
// v_k' = J(t, y) v_k, re-orthonormalise them every interval T by Gram-Schmidt (a QR factorisation)
// and average the logarithms of the stretch factors (the diagonal of R):
//   lambda_k = (1 / (t - t0)) * sum over renormalisations of log r_kk.
//
// TangentModel<M, K> is itself a model (same contract), dimension N + N*K with the layout
//   [ y (N) | v_0 (N) | v_1 (N) | ... ], so every explicit stepper integrates it unchanged.
// It forwards events/aux/observables to M on the first N components. Resets of M are applied to
// y only: the tangent vectors are not mapped through the reset (no saltation matrix), so exponents
// of systems with state-changing events are not computed correctly by this wrapper.
//
//   TangentModel<M, K> tm{m};  SystemState<TangentModel<M,K>> s = ...;  set y, then
//   lyapunov_start(tm, s.y)                       // v_k = e_k
//   repeat: integrate(tm, stepper, s, p, t + T, ...);  lyapunov_renormalise(tm, s.y, acc);
//           state_changed(s, stepper);
//   exponents: acc.sum[k] / acc.elapsed
#pragma once

#include "bif/kernel_support.h"

namespace bif {

template <class Model, int K>
struct TangentModel {
    using real = typename Model::real;
    static_assert(K >= 1 && K <= Model::num_states, "1 <= K <= N tangent vectors");
    static constexpr int base_states = Model::num_states;
    static constexpr int num_states = Model::num_states * (1 + K);
    static constexpr int num_params = Model::num_params;
    static constexpr int num_param_slots = Model::num_param_slots;
    static constexpr int num_events = Model::num_events;
    static constexpr int num_aux = Model::num_aux;
    static constexpr int num_observables = Model::num_observables;

    Model base;

    BIF_HD constexpr int dimension() const { return base.dimension() * (1 + K); }
    BIF_HD constexpr int event_count() const { return base.event_count(); }
    BIF_HD constexpr int param_slot_count() const { return base.param_slot_count(); }
    BIF_HD constexpr int aux_count() const { return base.aux_count(); }
    BIF_HD constexpr int observable_count() const { return base.observable_count(); }

    BIF_HD void complete_parameters(real* p) const { base.complete_parameters(p); }

    // dy/dt = f(t, y);  dv_k/dt = J(t, y) v_k
    BIF_HD void rhs(real t, const real* y, const real* p, real* dydt) const {
        constexpr int N = base_states;
        const int n = base.dimension();
        real jac[N * N];
        base.rhs(t, y, p, dydt);
        base.jacobian(t, y, p, jac);
        BIF_UNROLL
        for (int k = 0; k < K; ++k) {
            BIF_UNROLL
            for (int i = 0; i < n; ++i) {
                real acc = real(0);
                BIF_UNROLL
                for (int j = 0; j < n; ++j)
                    acc += jac[i * n + j] * y[n + k * n + j];
                dydt[n + k * n + i] = acc;
            }
        }
    }

    // Block lower-triangular Jacobian without the second-derivative coupling d(J v)/dy, which the
    // contract does not provide: exact for linear models, a W-method approximation otherwise.
    BIF_HD void jacobian(real t, const real* y, const real* p, real* jac) const {
        constexpr int N = base_states;
        const int n = base.dimension();
        const int d = dimension();
        real j0[N * N];
        base.jacobian(t, y, p, j0);
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j)
                jac[i * d + j] = real(0);
        for (int b = 0; b <= K; ++b)
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    jac[(b * n + i) * d + b * n + j] = j0[i * n + j];
    }

    BIF_HD void time_derivative(real t, const real* y, const real* p, real* dfdt) const {
        const int n = base.dimension();
        base.time_derivative(t, y, p, dfdt);
        for (int i = n; i < dimension(); ++i)
            dfdt[i] = real(0);
    }

    BIF_HD void events(real t, const real* y, const real* p, real* g) const { base.events(t, y, p, g); }
    BIF_HD int event_direction(int k) const { return base.event_direction(k); }
    BIF_HD bool apply_reset(int k, real t, real* y, real* p) const { return base.apply_reset(k, t, y, p); }
    BIF_HD void aux(real t, const real* y, const real* p, real* a) const { base.aux(t, y, p, a); }
    BIF_HD void observables(real t, const real* y, const real* p, real* o) const {
        base.observables(t, y, p, o);
    }
};

template <int K, class Real>
struct LyapunovSums {
    Real sum[K] = {}; // sum of log r_kk
    Real elapsed = Real(0);
};

// v_k = e_k (the first K unit vectors) in the tangent part of y.
template <class Model, int K>
BIF_HD void lyapunov_start(const TangentModel<Model, K>& tm, typename Model::real* y) {
    const int n = tm.base.dimension();
    BIF_UNROLL
    for (int k = 0; k < K; ++k) {
        BIF_UNROLL
        for (int i = 0; i < n; ++i)
            y[n + k * n + i] = i == k ? typename Model::real(1) : typename Model::real(0);
    }
}

// Modified Gram-Schmidt on the K vectors stored one after another in v (length n each):
// v_k <- (v_k - sum_{i<k} (v_i . v_k) v_i) / r_kk, r_kk the norm before scaling. Writes r_kk.
template <int K, class Real>
BIF_HD void gram_schmidt(Real* v, int n, Real* r) {
    BIF_UNROLL
    for (int k = 0; k < K; ++k) {
        BIF_UNROLL
        for (int i = 0; i < k; ++i) {
            Real dot = Real(0);
            BIF_UNROLL
            for (int c = 0; c < n; ++c)
                dot += v[i * n + c] * v[k * n + c];
            BIF_UNROLL
            for (int c = 0; c < n; ++c)
                v[k * n + c] -= dot * v[i * n + c];
        }
        Real norm = Real(0);
        BIF_UNROLL
        for (int c = 0; c < n; ++c)
            norm += v[k * n + c] * v[k * n + c];
        norm = m::sqrt(norm);
        r[k] = norm;
        const Real inv = norm > Real(0) ? Real(1) / norm : Real(0);
        BIF_UNROLL
        for (int c = 0; c < n; ++c)
            v[k * n + c] *= inv;
    }
}

// Re-orthonormalises the tangent vectors in y after an interval of length dt and accumulates
// log r_kk. Call state_changed(state, stepper) afterwards: y changed under the stepper.
template <class Model, int K>
BIF_HD void lyapunov_renormalise(const TangentModel<Model, K>& tm, typename Model::real* y,
                                 typename Model::real dt, LyapunovSums<K, typename Model::real>& sums) {
    using real = typename Model::real;
    const int n = tm.base.dimension();
    real r[K];
    gram_schmidt<K>(y + n, n, r);
    BIF_UNROLL
    for (int k = 0; k < K; ++k)
        sums.sum[k] += m::log(r[k]);
    sums.elapsed += dt;
}

} // namespace bif
