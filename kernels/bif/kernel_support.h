// Small building blocks shared by every integrator header: an unroll hint that only CUDA sees,
// machine epsilon without <limits> (not available under NVRTC), array capacities for sizes that
// may be zero, and min/max/abs that do not depend on <algorithm>.
#pragma once

#include "bif/config.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define BIF_PRAGMA(x) _Pragma(#x)
// Loops over the states (and the events, observables, tangent vectors) unroll fully: a small model's
// arrays then live in registers. BIF_ROLL_STATE_LOOPS, which the CUDA backend defines for big models
// (engine/cuda/ensemble_source.h, rolled_loop_states), keeps them loops instead: unrolled, a 202-state
// model's stepper, error norm and dense output were hundreds of thousands of instructions that NVRTC
// had not compiled after minutes, for arrays that live in local memory anyway.
// BIF_STATE_LOOP marks a loop over the states that has no unroll hint otherwise (the compiler's
// choice: NVVM unrolled a 1000-state model's block set-up loop fully on its own); a loop for big models.
#if defined(BIF_ROLL_STATE_LOOPS)
#define BIF_UNROLL _Pragma("unroll 1")
#define BIF_STATE_LOOP _Pragma("unroll 1")
#else
#define BIF_UNROLL _Pragma("unroll")
#define BIF_STATE_LOOP
#endif
// Unrolls only while `limit` (a constant expression, template arguments allowed) is > 1: the
// O(N^3) loops of a dense LU are unrolled for small systems and left as loops for large ones.
#define BIF_UNROLL_IF(limit) BIF_PRAGMA(unroll(limit))
// A loop the GPU compiler keeps as a loop: code that runs once per call, not worth its size.
#define BIF_ROLLED _Pragma("unroll 1")
#else
#define BIF_UNROLL
#define BIF_STATE_LOOP
#define BIF_UNROLL_IF(limit)
#define BIF_ROLLED
#endif

namespace bif {

// Unit roundoff of the working precision (IEEE binary32 / binary64 machine epsilon).
template <class Real>
BIF_HD constexpr Real epsilon() {
    return sizeof(Real) == 4 ? Real(1.1920928955078125e-7) : Real(2.220446049250313080847e-16);
}

// The error an attempt reports when it cannot produce a step (a singular iteration matrix): large
// enough for the controller to shrink the step as far as it may, yet finite (not a NaN state).
template <class Real>
BIF_HD constexpr Real failed_step_error() {
    return Real(1e30);
}

// A C array needs at least one element; models may have no events or observables.
BIF_HD constexpr int capacity(int n) {
    return n > 0 ? n : 1;
}

template <class Real>
BIF_HD BIF_FORCEINLINE Real min_of(Real a, Real b) {
    return a < b ? a : b;
}
template <class Real>
BIF_HD BIF_FORCEINLINE Real max_of(Real a, Real b) {
    return a > b ? a : b;
}
template <class Real>
BIF_HD BIF_FORCEINLINE Real abs_of(Real a) {
    return a < Real(0) ? -a : a;
}

// dst[i] = src[i] for i < n; with n a compile-time constant the loop unrolls into register moves.
template <class Real>
BIF_HD BIF_FORCEINLINE void copy_n(const Real* src, int n, Real* dst) {
    BIF_UNROLL
    for (int i = 0; i < n; ++i)
        dst[i] = src[i];
}

// The bit pattern of a float or double, read on the integer units: tests on it (finiteness, equality
// of a cached value) then stay off the FP64 units, which a GPU's integration loop keeps busy.
template <class Real>
BIF_HD BIF_FORCEINLINE auto bits_of(Real x) {
    if constexpr (sizeof(Real) == 8) {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
        return (unsigned long long)__double_as_longlong(double(x));
#else
        unsigned long long bits;
        __builtin_memcpy(&bits, &x, sizeof bits);
        return bits;
#endif
    } else {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
        return __float_as_uint(float(x));
#else
        unsigned int bits;
        __builtin_memcpy(&bits, &x, sizeof bits);
        return bits;
#endif
    }
}

// A quiet NaN of Real, made from its bits (no division by zero for the compiler to fold or warn on).
template <class Real>
BIF_HD BIF_FORCEINLINE Real quiet_nan() {
    if constexpr (sizeof(Real) == 8) {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
        return Real(__longlong_as_double(0x7ff8000000000000LL));
#else
        const unsigned long long bits = 0x7ff8000000000000ULL;
        double x;
        __builtin_memcpy(&x, &bits, sizeof x);
        return Real(x);
#endif
    } else {
#if defined(__CUDACC_RTC__) || defined(__CUDA_ARCH__)
        return Real(__uint_as_float(0x7fc00000U));
#else
        const unsigned int bits = 0x7fc00000U;
        float x;
        __builtin_memcpy(&x, &bits, sizeof x);
        return Real(x);
#endif
    }
}

// A key on the integer units that grows with |x|, for loops that test many values against one
// limit at the cost of an integer max each: a float's bits, a double's high word, doubled (which
// drops the sign: as k + k, a GPU of compute capability 9 fuses it with the max into one
// instruction). Exact for a float (infinities and NaNs lie above every finite value); |x| to 2^-20
// relative for a double.
template <class Real>
BIF_HD BIF_FORCEINLINE unsigned int magnitude_key(Real x) {
    if constexpr (sizeof(Real) == 8) {
        const unsigned int high = (unsigned int)(bits_of(x) >> 32);
        return high + high;
    } else {
        const unsigned int bits = bits_of(x);
        return bits + bits;
    }
}

// max(key, magnitude_key(x)): on a GPU one DPX instruction (add-then-max, compute capability 9;
// written as add and max, NVVM turns the doubled high word into a 64-bit shift and a mask).
template <class Real>
BIF_HD BIF_FORCEINLINE unsigned int max_magnitude_key(unsigned int key, Real x) {
#if defined(__CUDA_ARCH__) && defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12
    unsigned int word;
    if constexpr (sizeof(Real) == 8)
        word = (unsigned int)__double2hiint(double(x));
    else
        word = __float_as_uint(float(x));
    return __viaddmax_u32(word, word, key);
#else
    return max_of(key, magnitude_key(x));
#endif
}

// The largest key that proves |x| <= limit (limit finite and > 0): exact for a float; for a double,
// keys below the limit's own, so that a value with the limit's high word is taken as possibly
// beyond (the caller then tests it exactly).
template <class Real>
BIF_HD BIF_FORCEINLINE unsigned int magnitude_key_inside(Real limit) {
    const unsigned int key = magnitude_key(limit);
    if constexpr (sizeof(Real) == 8)
        return key >= 2 ? key - 2 : 0;
    else
        return key;
}

// m::is_finite(x) (x - x == 0) from the bits: the exponent field is all ones exactly for
// infinities and NaNs.
template <class Real>
BIF_HD BIF_FORCEINLINE bool finite_by_bits(Real x) {
    if constexpr (sizeof(Real) == 8)
        return (bits_of(x) & 0x7ff0000000000000ULL) != 0x7ff0000000000000ULL;
    else
        return (bits_of(x) & 0x7f800000U) != 0x7f800000U;
}

// Whether an attempted step produced a usable result: its error estimate and new state finite,
// tested on the bits (the integer units are idle while the FP64 units integrate).
template <class Real>
BIF_HD BIF_FORCEINLINE bool step_is_finite(Real err, const Real* y_new, int n) {
    bool finite = finite_by_bits(err);
    BIF_UNROLL
    for (int i = 0; i < n; ++i)
        finite = finite && finite_by_bits(y_new[i]);
    return finite;
}

template <class Real>
BIF_HD BIF_FORCEINLINE bool all_finite(const Real* v, int n) {
    bool ok = true;
    BIF_UNROLL
    for (int i = 0; i < n; ++i)
        ok = ok && m::is_finite(v[i]);
    return ok;
}

} // namespace bif
