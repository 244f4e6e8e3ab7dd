// One header that every kernel and every generated model includes first. It lets the same text
// compile as host C++ (g++/clang++), with nvcc and through NVRTC:
//   BIF_HD        marks functions callable on host and device (empty on the host);
//   BIF_GPU_NOINLINE  a function the GPU compiler keeps out of line: its registers are allocated
//                 on their own, so a rarely taken path does not push a hot loop into local memory;
//   BIF_NOINLINE  kept out of line by every compiler: the huge straight-line functions of big
//                 generated models, which inlined into each call site cost minutes of compiling;
//   BIF_RARE      a rarely taken path of the step loop, out of line on the GPU only where the
//                 backend defines BIF_OUTLINE_RARE: in a module whose functions NVRTC compiles
//                 apart and in parallel (the app's first tier), where a smaller step kernel
//                 compiles sooner; inlined otherwise, where it costs the loop nothing;
//   bif::m::...   overloads of the math functions for float and double, so that a float model
//                 calls sinf and never silently promotes to double (MPGOS's float kernels ran in
//                 FP64 because of exactly that).
// No standard headers are needed under NVRTC: its built-in math declarations are used.
#pragma once

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define BIF_HD __host__ __device__
#define BIF_DEVICE __device__
#define BIF_FORCEINLINE __forceinline__
#define BIF_GPU_NOINLINE __noinline__
#define BIF_NOINLINE __noinline__
#if defined(BIF_OUTLINE_RARE)
#define BIF_RARE __noinline__
#else
#define BIF_RARE
#endif
#else
#define BIF_HD
#define BIF_DEVICE
#define BIF_FORCEINLINE inline __attribute__((always_inline))
#define BIF_GPU_NOINLINE
#define BIF_NOINLINE __attribute__((noinline))
#define BIF_RARE
#include <cmath>
#endif

namespace bif::m {

// clang-format off
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
// BIF_OUTLINE_MATH keeps the transcendental functions out of line (BIF_MATH1T/2T): a double cos is
// ~220 instructions of inlined code at every call, most of a small model's kernel and of its compile.
// Declared inline all the same, so that a separately compiled module (-rdc) emits only those called.
#if defined(BIF_OUTLINE_MATH)
#define BIF_MATH_LINKAGE BIF_GPU_NOINLINE inline
#else
#define BIF_MATH_LINKAGE BIF_FORCEINLINE
#endif
#define BIF_MATH1(name, fname, dname)                                                                        \
    BIF_HD BIF_FORCEINLINE float name(float x) { return ::fname(x); }                                        \
    BIF_HD BIF_FORCEINLINE double name(double x) { return ::dname(x); }
#define BIF_MATH2(name, fname, dname)                                                                        \
    BIF_HD BIF_FORCEINLINE float name(float x, float y) { return ::fname(x, y); }                            \
    BIF_HD BIF_FORCEINLINE double name(double x, double y) { return ::dname(x, y); }
#define BIF_MATH1T(name, fname, dname)                                                                       \
    BIF_HD BIF_MATH_LINKAGE float name(float x) { return ::fname(x); }                                       \
    BIF_HD BIF_MATH_LINKAGE double name(double x) { return ::dname(x); }
#define BIF_MATH2T(name, fname, dname)                                                                       \
    BIF_HD BIF_MATH_LINKAGE float name(float x, float y) { return ::fname(x, y); }                           \
    BIF_HD BIF_MATH_LINKAGE double name(double x, double y) { return ::dname(x, y); }
#else
#define BIF_MATH1(name, fname, dname)                                                                        \
    inline float name(float x) { return std::dname(x); }                                                     \
    inline double name(double x) { return std::dname(x); }
#define BIF_MATH2(name, fname, dname)                                                                        \
    inline float name(float x, float y) { return std::dname(x, y); }                                         \
    inline double name(double x, double y) { return std::dname(x, y); }
#define BIF_MATH1T BIF_MATH1
#define BIF_MATH2T BIF_MATH2
#endif
// clang-format on

BIF_MATH1T(sin, sinf, sin)
BIF_MATH1T(cos, cosf, cos)
BIF_MATH1T(tan, tanf, tan)
BIF_MATH1T(asin, asinf, asin)
BIF_MATH1T(acos, acosf, acos)
BIF_MATH1T(atan, atanf, atan)
BIF_MATH1T(sinh, sinhf, sinh)
BIF_MATH1T(cosh, coshf, cosh)
BIF_MATH1T(tanh, tanhf, tanh)
BIF_MATH1T(exp, expf, exp)
BIF_MATH1T(log, logf, log)
BIF_MATH1T(log10, log10f, log10)
BIF_MATH1(sqrt, sqrtf, sqrt)
BIF_MATH1(fabs, fabsf, fabs)
BIF_MATH1(floor, floorf, floor)
BIF_MATH1(ceil, ceilf, ceil)
BIF_MATH1T(erf, erff, erf)
BIF_MATH1T(erfc, erfcf, erfc)
BIF_MATH1T(lgamma, lgammaf, lgamma)
BIF_MATH2T(atan2, atan2f, atan2)
BIF_MATH2T(pow, powf, pow)
BIF_MATH2(fmin, fminf, fmin)
BIF_MATH2(fmax, fmaxf, fmax)

#undef BIF_MATH1
#undef BIF_MATH2
#undef BIF_MATH1T
#undef BIF_MATH2T

template <class Real>
BIF_HD BIF_FORCEINLINE Real heav(Real x) { return x >= Real(0) ? Real(1) : Real(0); }
template <class Real>
BIF_HD BIF_FORCEINLINE Real sign(Real x) { return x > Real(0) ? Real(1) : (x < Real(0) ? Real(-1) : Real(0)); }
// XPPAUT's mod: a - b*floor(a/b), so mod(-1,3) = 2.
template <class Real>
BIF_HD BIF_FORCEINLINE Real mod(Real a, Real b) { return a - b * floor(a / b); }
template <class Real>
BIF_HD BIF_FORCEINLINE Real truth(bool c) { return c ? Real(1) : Real(0); }
template <class Real>
BIF_HD BIF_FORCEINLINE bool is_finite(Real x) { return x - x == Real(0); }

// XPPAUT's besselj(n, x) and bessely(n, x): J_n and Y_n with the order truncated to an integer (NaN
// where the order is beyond |n| < 1e6, where the cast to int would be undefined).
template <class Real>
BIF_HD BIF_FORCEINLINE bool bessel_order_ok(Real n) { return n < Real(1e6) && n > Real(-1e6); }
BIF_HD inline double besselj(double n, double x) {
    return bessel_order_ok(n) ? ::jn(int(n), x) : (n - n) / (n - n);
}
BIF_HD inline float besselj(float n, float x) {
    return bessel_order_ok(n) ? ::jnf(int(n), x) : (n - n) / (n - n);
}
BIF_HD inline double bessely(double n, double x) {
    return bessel_order_ok(n) ? ::yn(int(n), x) : (n - n) / (n - n);
}
BIF_HD inline float bessely(float n, float x) {
    return bessel_order_ok(n) ? ::ynf(int(n), x) : (n - n) / (n - n);
}

// XPPAUT's `table` lookup (tabular.c): y at xlo + k dx, k < n; the segment is (int)((x-xlo)/dx),
// truncated toward zero, and the end segments extend linearly beyond [xlo, xhi].
// engine/symbolic/table.h computes the same on the host.
template <class Real>
BIF_HD inline Real table_lookup(const Real* y, int n, Real xlo, Real xhi, Real dx, Real x) {
    const Real s = (x - xlo) / dx;
    if (!(s == s)) return s;
    if (s <= Real(-1)) return y[0] + (y[1] - y[0]) * (x - xlo) / dx;
    if (s >= Real(n - 1)) return y[n - 1] + (y[n - 1] - y[n - 2]) * (x - xhi) / dx;
    const int i = int(s);
    return y[i] + (y[i + 1] - y[i]) * (x - (dx * Real(i) + xlo)) / dx;
}

// d/dx of table_lookup: the slope of the segment in use.
template <class Real>
BIF_HD inline Real table_slope(const Real* y, int n, Real xlo, Real dx, Real x) {
    const Real s = (x - xlo) / dx;
    if (!(s == s)) return s;
    const int i = s <= Real(-1) ? 0 : (s >= Real(n - 1) ? n - 2 : int(s));
    return (y[i + 1] - y[i]) / dx;
}

} // namespace bif::m
