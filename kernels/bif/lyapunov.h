// Lyapunov exponents by the standard method of Benettin et al. (Meccanica 15, 1980) and Shimada &
// Nagashima (Prog. Theor. Phys. 61, 1979): integrate y together with K tangent vectors
// v_k' = J(t, y) v_k, re-orthonormalise them every interval T by Gram-Schmidt (a QR factorisation)
// and average the logarithms of the stretch factors (the diagonal of R):
//   lambda_k = (1 / (t - t0)) * sum over renormalisations of log r_kk.
//
// TangentModel<M, K> is itself a model (same contract), dimension N + N*K with the layout
//   [ y (N) | v_0 (N) | v_1 (N) | ... ], so every stepper integrates it unchanged.
// It forwards events/aux/observables to M on the first N components.
//
// Resets (non-smooth flows): at an event g(t, y) = 0 with reset y+ = R(t, y-) every tangent vector
// is mapped by the saltation matrix (Mueller, Chaos Solitons Fractals 5 (1995) 1671; Leine & Nijmeijer,
// Dynamics and Bifurcations of Non-Smooth Mechanical Systems, 2004, Sec. 3.4):
//   S = DR + (f+ - DR f- - dR/dt) (dg/dy)^T / (dg/dy . f- + dg/dt),
//   f- = f(t, y-, p-), f+ = f(t, R(y-), p+),
// from the model's event_gradient and reset_jacobian (model_contract.h). The second term accounts
// for the perturbed trajectory hitting the surface earlier or later. Parameters reset by an event
// enter through f+ only: a parameter reset that depends on y is not differentiated.
// Grazing: when dg/dy . f- + dg/dt is zero within rounding (a tangential touch, or an exact-zero
// event of direction 0 sitting on its surface) the true map has an unbounded stretch; DR alone is
// used there, a finite choice. A reset that changes neither y nor p leaves the vectors alone.
// A model without event_gradient/reset_jacobian (hand-written ones) maps y only.
//
// Jacobian of the tangent system (for Rosenbrock methods): block lower triangular, with
//   d(J v_k)/dy = sum_j dJ_ij/dy_l v_kj      (hessian_vector)
// in the first block column and (dJ/dt) v_k in the time derivative (jacobian_time_vector). A model
// without them (generated without Request::tangent_derivatives) gets J on the diagonal only: exact
// for linear models, a W-method approximation otherwise (the methods then lose order).
//
//   TangentModel<M, K> tm{m};  SystemState<TangentModel<M,K>> s = ...;  set y, then
//   lyapunov_start(tm, s.y)                       // v_k = e_k
//   repeat: integrate(tm, stepper, s, p, t + T, ...);  lyapunov_renormalise(tm, s.y, acc);
//           state_changed(s, stepper);
//   exponents: acc.sum[k] / acc.elapsed
#pragma once

#include "bif/events.h"
#include "bif/kernel_support.h"

namespace bif {

// Detection of the optional contract parts in C++17 (the NVRTC programs are C++17: no concepts).
namespace detail {
template <class... T>
struct make_void {
    using type = void;
};
template <class T>
BIF_HD T& fake_value(); // unevaluated contexts only

template <class M, class = void>
struct provides_saltation {
    static constexpr bool value = false;
};
template <class M>
struct provides_saltation<
    M, typename make_void<decltype(fake_value<const M>().event_gradient(
                              0, typename M::real(), (const typename M::real*)nullptr,
                              (const typename M::real*)nullptr, (typename M::real*)nullptr)),
                          decltype(fake_value<const M>().reset_jacobian(
                              0, typename M::real(), (const typename M::real*)nullptr,
                              (const typename M::real*)nullptr, (typename M::real*)nullptr,
                              (typename M::real*)nullptr))>::type> {
    static constexpr bool value = true;
};

template <class M, class = void>
struct provides_tangent_derivatives {
    static constexpr bool value = false;
};
template <class M>
struct provides_tangent_derivatives<
    M, typename make_void<decltype(fake_value<const M>().hessian_vector(
                              typename M::real(), (const typename M::real*)nullptr,
                              (const typename M::real*)nullptr, (typename M::real*)nullptr)),
                          decltype(fake_value<const M>().jacobian_time_vector(
                              typename M::real(), (const typename M::real*)nullptr,
                              (const typename M::real*)nullptr, (typename M::real*)nullptr))>::type> {
    static constexpr bool value = true;
};
} // namespace detail

// Models that provide the saltation parts of model_contract.h (generated ones always do).
template <class M>
inline constexpr bool ProvidesSaltation = detail::provides_saltation<M>::value;

// Models generated with the tangent system's second-derivative terms.
template <class M>
inline constexpr bool ProvidesTangentDerivatives = detail::provides_tangent_derivatives<M>::value;

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

    // Block lower triangular: J on the diagonal, d(J v_k)/dy in the first column (when provided).
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
        if constexpr (ProvidesTangentDerivatives<Model>) {
            real yv[2 * N];
            copy_n(y, n, yv);
            for (int b = 1; b <= K; ++b) {
                copy_n(y + b * n, n, yv + n);
                base.hessian_vector(t, yv, p, j0);
                for (int i = 0; i < n; ++i)
                    for (int l = 0; l < n; ++l)
                        jac[(b * n + i) * d + l] = j0[i * n + l];
            }
        }
    }

    // df/dt, then (dJ/dt) v_k (zero when not provided)
    BIF_HD void time_derivative(real t, const real* y, const real* p, real* dfdt) const {
        const int n = base.dimension();
        base.time_derivative(t, y, p, dfdt);
        if constexpr (ProvidesTangentDerivatives<Model>) {
            constexpr int N = base_states;
            real yv[2 * N];
            copy_n(y, n, yv);
            for (int b = 1; b <= K; ++b) {
                copy_n(y + b * n, n, yv + n);
                base.jacobian_time_vector(t, yv, p, dfdt + b * n);
            }
        } else {
            for (int i = n; i < dimension(); ++i)
                dfdt[i] = real(0);
        }
    }

    BIF_HD void events(real t, const real* y, const real* p, real* g) const { base.events(t, y, p, g); }
    // The base model's gradient on the state part (the tangent vectors do not enter g), dg/dt last;
    // zeros without one.
    BIF_HD void event_gradient(int k, real t, const real* y, const real* p, real* grad) const {
        const int n = base.dimension();
        real g[Model::num_states + 1] = {};
        if constexpr (ProvidesEventGradient<Model>) base.event_gradient(k, t, y, p, g);
        for (int i = 0; i <= dimension(); ++i)
            grad[i] = real(0);
        copy_n(g, n, grad);
        grad[dimension()] = g[n];
    }
    BIF_HD int event_direction(int k) const { return base.event_direction(k); }
    // Resets y by the model and maps every tangent vector by the saltation matrix (see the top).
    BIF_HD bool apply_reset(int k, real t, real* y, real* p) const {
        if constexpr (ProvidesSaltation<Model>)
            return reset_with_saltation(k, t, y, p);
        else
            return base.apply_reset(k, t, y, p);
    }
    BIF_HD void aux(real t, const real* y, const real* p, real* a) const { base.aux(t, y, p, a); }
    BIF_HD void observables(real t, const real* y, const real* p, real* o) const {
        base.observables(t, y, p, o);
    }

  private:
    BIF_HD bool reset_with_saltation(int k, real t, real* y, real* p) const {
        constexpr int N = base_states;
        constexpr int P = capacity(Model::num_param_slots);
        const int n = base.dimension();
        const int np = base.param_slot_count();
        real dr[N * N], drdt[N];
        if (!base.reset_jacobian(k, t, y, p, dr, drdt)) return base.apply_reset(k, t, y, p); // no resets
        real grad[N + 1], f_before[N], f_after[N], y_before[N], p_before[P];
        base.event_gradient(k, t, y, p, grad);
        base.rhs(t, y, p, f_before);
        copy_n(y, n, y_before);
        copy_n(p, np, p_before);
        const bool stop = base.apply_reset(k, t, y, p);
        bool changed = false;
        for (int i = 0; i < n; ++i)
            changed = changed || !(y[i] == y_before[i]);
        for (int i = 0; i < np; ++i)
            changed = changed || !(p[i] == p_before[i]);
        if (!changed) return stop;
        base.rhs(t, y, p, f_after);
        // w = f+ - DR f- - dR/dt;  crossing speed = dg/dy . f- + dg/dt
        real w[N];
        real speed = grad[n], scale = abs_of(grad[n]);
        for (int i = 0; i < n; ++i) {
            real dr_f = real(0);
            for (int j = 0; j < n; ++j)
                dr_f += dr[i * n + j] * f_before[j];
            w[i] = f_after[i] - dr_f - drdt[i];
            speed += grad[i] * f_before[i];
            scale += abs_of(grad[i] * f_before[i]);
        }
        const bool transversal = abs_of(speed) > real(100) * epsilon<real>() * scale;
        for (int b = 1; b <= K; ++b) {
            real* v = y + b * n;
            // S v = DR v + w (dg/dy . v) / speed
            real along = real(0);
            for (int j = 0; j < n; ++j)
                along += grad[j] * v[j];
            const real c = transversal ? along / speed : real(0);
            real sv[N];
            for (int i = 0; i < n; ++i) {
                real acc = c * w[i];
                for (int j = 0; j < n; ++j)
                    acc += dr[i * n + j] * v[j];
                sv[i] = acc;
            }
            copy_n(sv, n, v);
        }
        return stop;
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
