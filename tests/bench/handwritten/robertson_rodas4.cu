// Hand-written Rodas4 for the stiff benchmark's Robertson ensemble (issue 36), float and double:
//   y1' = -k1 y1 + k3 y2 y3,  y2' = k1 y1 - k3 y2 y3 - k2 y2^2,  y3' = k2 y2^2
// k3 per system, from y = (1, 0, 0) at t = 0 to t_end. Compiled after stiff_support.cuh and
// rodas4_step.cuh (the method and its step control). Writes y at t_end (component c of system i at
// out[i + c n]) and the accepted and rejected step counts and the status (counts[i + {0, 1, 2} n]).

template <class Real>
struct Robertson {
    static constexpr int n = 3;
    Real k1, k2, k3;

    __device__ __forceinline__ void rhs(const Real* y, Real* f) const {
        const Real fast = k3 * y[1] * y[2], dimer = k2 * y[1] * y[1];
        f[0] = -k1 * y[0] + fast;
        f[1] = k1 * y[0] - fast - dimer;
        f[2] = dimer;
    }
    __device__ __forceinline__ void jacobian(const Real* y, Real* J) const {
        J[0] = -k1;
        J[1] = k3 * y[2];
        J[2] = k3 * y[1];
        J[3] = k1;
        J[4] = -k3 * y[2] - Real(2) * k2 * y[1];
        J[5] = -k3 * y[1];
        J[6] = Real(0);
        J[7] = Real(2) * k2 * y[1];
        J[8] = Real(0);
    }
};

template <class Real>
__device__ __forceinline__ void robertson_rodas4(const Real* __restrict__ k3_values, Real* __restrict__ out,
                                                 unsigned int* __restrict__ counts, unsigned long long n,
                                                 Real k1, Real k2, const StiffSettings<Real>& s) {
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Robertson<Real> m{k1, k2, k3_values[i]};
    Real y[3] = {Real(1), Real(0), Real(0)};
    const StiffCounts c = hand_rodas4(m, y, s);
    out[i] = y[0];
    out[i + n] = y[1];
    out[i + 2 * n] = y[2];
    counts[i] = c.accepted;
    counts[i + n] = c.rejected;
    counts[i + 2 * n] = c.status;
}

extern "C" __global__ void __launch_bounds__(128)
    hand_robertson_rodas4_double(const double* k3, double* out, unsigned int* counts, unsigned long long n,
                                 double k1, double k2, const StiffSettings<double> s) {
    robertson_rodas4(k3, out, counts, n, k1, k2, s);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_robertson_rodas4_float(const float* k3, float* out, unsigned int* counts, unsigned long long n,
                                float k1, float k2, const StiffSettings<float> s) {
    robertson_rodas4(k3, out, counts, n, k1, k2, s);
}
