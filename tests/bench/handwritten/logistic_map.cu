// Hand-written reference for the logistic-map benchmark: the orbit diagram kernel a careful CUDA
// programmer writes for x(n+1) = r x(n) (1 - x(n)). One thread per value of r, read once; x in a
// register; the transient iterates discarded, the recorded ones written in structure-of-arrays
// layout (iterate k of every system contiguous, so a warp's stores coalesce).

template <class Real>
__device__ __forceinline__ void logistic_orbit(const Real* __restrict__ r_values, Real* __restrict__ out,
                                               unsigned long long n, int transient, int recorded, Real x0) {
    const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const Real r = r_values[i];
    Real x = x0;
    for (int k = 0; k < transient; ++k)
        x = r * x * (Real(1) - x);
    for (int k = 0; k < recorded; ++k) {
        x = r * x * (Real(1) - x);
        out[(unsigned long long)k * n + i] = x;
    }
}

extern "C" __global__ void __launch_bounds__(128)
    hand_logistic_double(const double* r, double* out, unsigned long long n, int transient, int recorded,
                         double x0) {
    logistic_orbit<double>(r, out, n, transient, recorded, x0);
}

extern "C" __global__ void __launch_bounds__(128)
    hand_logistic_float(const float* r, float* out, unsigned long long n, int transient, int recorded, float x0) {
    logistic_orbit<float>(r, out, n, transient, recorded, x0);
}
