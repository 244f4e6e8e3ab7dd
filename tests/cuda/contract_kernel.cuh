// A kernel that calls every function of the model contract (kernels/bif/model_contract.h) once per
// thread, for many parameter sets in structure-of-arrays layout, and writes every result:
//   in:  y[i + k*n] (k < N), p[i + k*n] (k < P user parameters), t[i]
//   out: row i of `out`, out[i*W + ...]: slots p[0..P+D), f[0..N), J[0..N*N), dfdt[0..N),
//        g[0..E), a[0..A), o[0..O), then after a reset of event 0 (when E > 0): stop flag, y, p slots.
// The tests compile it through NVRTC for a model type and compare with the host.
#pragma once

#include "bif/config.h"

template <class M>
struct ContractLayout {
    static constexpr int N = M::num_states, S = M::num_param_slots, E = M::num_events;
    static constexpr int A = M::num_aux, O = M::num_observables;
    static constexpr int width = S + N + N * N + N + E + A + O + (E > 0 ? 1 + N + S : 0);
};

template <class M>
BIF_HD void exercise_contract(const typename M::real* y_in, const typename M::real* p_in, typename M::real t,
                              int i, int n, typename M::real* row) {
    using R = typename M::real;
    using L = ContractLayout<M>;
    R y[L::N], p[L::S + 1], J[L::N * L::N], g[L::E + 1], a[L::A + 1], o[L::O + 1];
    for (int k = 0; k < L::N; ++k)
        y[k] = y_in[i + k * n];
    for (int k = 0; k < M::num_params; ++k)
        p[k] = p_in[i + k * n];
    M::complete_parameters(p);
    int w = 0;
    for (int k = 0; k < L::S; ++k)
        row[w++] = p[k];
    M::rhs(t, y, p, row + w);
    w += L::N;
    M::jacobian(t, y, p, J);
    for (int k = 0; k < L::N * L::N; ++k)
        row[w++] = J[k];
    M::time_derivative(t, y, p, row + w);
    w += L::N;
    M::events(t, y, p, g);
    for (int k = 0; k < L::E; ++k)
        row[w++] = g[k];
    M::aux(t, y, p, a);
    for (int k = 0; k < L::A; ++k)
        row[w++] = a[k];
    M::observables(t, y, p, o);
    for (int k = 0; k < L::O; ++k)
        row[w++] = o[k];
    if (L::E > 0) {
        row[w++] = M::apply_reset(0, t, y, p) ? R(1) : R(0);
        for (int k = 0; k < L::N; ++k)
            row[w++] = y[k];
        for (int k = 0; k < L::S; ++k)
            row[w++] = p[k];
    }
}

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
template <class M>
__global__ void contract_kernel(const typename M::real* y, const typename M::real* p,
                                const typename M::real* t, int n, typename M::real* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        exercise_contract<M>(y, p, t[i], i, n, out + static_cast<long long>(i) * ContractLayout<M>::width);
}
#endif
