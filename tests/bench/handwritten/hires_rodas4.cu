// Hand-written Rodas4 for a HIRES ensemble (issue 36), double: the "High Irradiance RESponse" of
// photomorphogenesis, 8 states (Schaefer 1975; problem HIRES of Hairer & Wanner, Solving ODEs II,
// Sect. IV.10), with the rate constant k (280 in the original) of the reaction y6 + y8 -> y7 per
// system, from y = (1, 0, 0, 0, 0, 0, 0, 0.0057) at t = 0 to t_end. Compiled after stiff_support.cuh and
// rodas4_step.cuh (the method and its step control), with the dense 8 x 8 LU a straightforward
// kernel would take. Writes y at t_end (component c of system i at out[i + c n]) and the accepted
// and rejected step counts and the status (counts[i + {0, 1, 2} n]).

struct Hires {
    static constexpr int n = 8;
    double k;

    __device__ __forceinline__ void rhs(const double* y, double* f) const {
        const double r = k * y[5] * y[7];
        f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
        f[1] = 1.71 * y[0] - 8.75 * y[1];
        f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
        f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
        f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
        f[5] = -r + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
        f[6] = r - 1.81 * y[6];
        f[7] = -r + 1.81 * y[6];
    }
    __device__ __forceinline__ void jacobian(const double* y, double* J) const {
#pragma unroll
        for (int i = 0; i < 64; ++i)
            J[i] = 0.0;
        J[0 * 8 + 0] = -1.71, J[0 * 8 + 1] = 0.43, J[0 * 8 + 2] = 8.32;
        J[1 * 8 + 0] = 1.71, J[1 * 8 + 1] = -8.75;
        J[2 * 8 + 2] = -10.03, J[2 * 8 + 3] = 0.43, J[2 * 8 + 4] = 0.035;
        J[3 * 8 + 1] = 8.32, J[3 * 8 + 2] = 1.71, J[3 * 8 + 3] = -1.12;
        J[4 * 8 + 4] = -1.745, J[4 * 8 + 5] = 0.43, J[4 * 8 + 6] = 0.43;
        J[5 * 8 + 3] = 0.69, J[5 * 8 + 4] = 1.71, J[5 * 8 + 5] = -k * y[7] - 0.43, J[5 * 8 + 6] = 0.69,
                  J[5 * 8 + 7] = -k * y[5];
        J[6 * 8 + 5] = k * y[7], J[6 * 8 + 6] = -1.81, J[6 * 8 + 7] = k * y[5];
        J[7 * 8 + 5] = -k * y[7], J[7 * 8 + 6] = 1.81, J[7 * 8 + 7] = -k * y[5];
    }
};

extern "C" __global__ void __launch_bounds__(128)
    hand_hires_rodas4_double(const double* __restrict__ k_values, double* __restrict__ out,
                             unsigned int* __restrict__ counts, unsigned long long n,
                             const StiffSettings<double> s) {
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Hires m{k_values[i]};
    double y[8] = {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057};
    const StiffCounts c = hand_rodas4(m, y, s);
#pragma unroll
    for (int j = 0; j < 8; ++j)
        out[i + j * n] = y[j];
    counts[i] = c.accepted;
    counts[i + n] = c.rejected;
    counts[i + 2 * n] = c.status;
}
