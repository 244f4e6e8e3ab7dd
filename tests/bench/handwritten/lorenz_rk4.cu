// Hand-written reference for the Lorenz RK4 benchmark: what a careful CUDA programmer writes for
// this one model. One thread per system, the state in registers, sigma and beta as kernel
// arguments (shared by all systems), rho read once (coalesced), the final state written once in
// structure-of-arrays layout. Classical RK4 (Kutta 1901) with a fixed step.
//
// Flops per step, an FMA counted as 2: right-hand side 8 (dx: sub, mul; dy: sub, fma; dz: mul,
// fma), stages y + h/2 k and y + h k: 3 x 3 FMA = 18; the update y + h/6 (k1 + 2 k2 + 2 k3 + k4):
// 3 x (fma, fma, add, fma) = 21; total 4 x 8 + 18 + 21 = 71.

template <class Real>
__device__ __forceinline__ void lorenz_rhs(Real sigma, Real rho, Real beta, Real x, Real y, Real z, Real& dx,
                                           Real& dy, Real& dz) {
    dx = sigma * (y - x);
    dy = x * (rho - z) - y;
    dz = x * y - beta * z;
}

template <class Real>
__device__ __forceinline__ void lorenz_rk4_system(Real rho, Real* __restrict__ out, unsigned long long i,
                                                  unsigned long long n, int steps, Real h, Real sigma,
                                                  Real beta) {
    Real x = Real(1), y = Real(0), z = Real(0);
    const Real h2 = h * Real(0.5), h6 = h / Real(6);
    for (int s = 0; s < steps; ++s) {
        Real k1x, k1y, k1z, k2x, k2y, k2z, k3x, k3y, k3z, k4x, k4y, k4z;
        lorenz_rhs(sigma, rho, beta, x, y, z, k1x, k1y, k1z);
        lorenz_rhs(sigma, rho, beta, x + h2 * k1x, y + h2 * k1y, z + h2 * k1z, k2x, k2y, k2z);
        lorenz_rhs(sigma, rho, beta, x + h2 * k2x, y + h2 * k2y, z + h2 * k2z, k3x, k3y, k3z);
        lorenz_rhs(sigma, rho, beta, x + h * k3x, y + h * k3y, z + h * k3z, k4x, k4y, k4z);
        x += h6 * (k1x + Real(2) * k2x + Real(2) * k3x + k4x);
        y += h6 * (k1y + Real(2) * k2y + Real(2) * k3y + k4y);
        z += h6 * (k1z + Real(2) * k2z + Real(2) * k3z + k4z);
    }
    out[i] = x;
    out[i + n] = y;
    out[i + 2 * n] = z;
}

template <class Real>
__device__ __forceinline__ void lorenz_rk4(const Real* __restrict__ rho_values, Real* __restrict__ out,
                                           unsigned long long n, int steps, Real h, Real sigma, Real beta) {
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Real rho = rho_values[i];
    lorenz_rk4_system(rho, out, i, n, steps, h, sigma, beta);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_lorenz_rk4_double(const double* rho, double* out, unsigned long long n, int steps, double h,
                           double sigma, double beta) {
    lorenz_rk4<double>(rho, out, n, steps, h, sigma, beta);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_lorenz_rk4_float(const float* rho, float* out, unsigned long long n, int steps, float h, float sigma,
                          float beta) {
    lorenz_rk4<float>(rho, out, n, steps, h, sigma, beta);
}

// Diagnostic variant: sigma and beta read per system from arrays (registers through the loop, as a
// kernel whose every parameter may be swept holds them) instead of kernel arguments (constant-bank
// instruction operands).
template <class Real>
__device__ __forceinline__ void
lorenz_rk4_thread_params(const Real* __restrict__ rho_values, const Real* __restrict__ sigma_values,
                         const Real* __restrict__ beta_values, Real* __restrict__ out, unsigned long long n,
                         int steps, Real h) {
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    lorenz_rk4_system(rho_values[i], out, i, n, steps, h, sigma_values[i], beta_values[i]);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_lorenz_rk4_double_thread_params(const double* rho, const double* sigma, const double* beta,
                                         double* out, unsigned long long n, int steps, double h) {
    lorenz_rk4_thread_params<double>(rho, sigma, beta, out, n, steps, h);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_lorenz_rk4_float_thread_params(const float* rho, const float* sigma, const float* beta, float* out,
                                        unsigned long long n, int steps, float h) {
    lorenz_rk4_thread_params<float>(rho, sigma, beta, out, n, steps, h);
}
