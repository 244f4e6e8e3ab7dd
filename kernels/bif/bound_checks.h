// The study's bound (XPPAUT's @ bound) as the integration driver tests it: whether a bounded
// component of the state lies beyond it, with a branch (checked loops) or without (the unchecked
// fixed-step loop).
#pragma once

#include "bif/kernel_support.h"
#include "bif/solver_settings.h"

// BIF_ENSEMBLE_BOUNDED 0 or 1 (set by the CUDA backend from the study's bound): only the unrolled
// fixed-step loop the study runs is compiled (Lorenz RK4: a 12% smaller image, 8% less compile time),
// and with 0 no bound test is compiled at all. Those tests after the step loops (the last partial
// step, the checked rerun) cost Lorenz RK4 4% on an H100 although they never run in its loop: with
// them, ptxas kept the shared parameters in ordinary registers reloaded at every pass instead of
// uniform ones (tests/bench/README.md). 2, the default, chooses at run time.
#ifndef BIF_ENSEMBLE_BOUNDED
#define BIF_ENSEMBLE_BOUNDED 2
#endif

namespace bif::detail {

// Whether some bounded component of y lies beyond set.bound (never with no bound, nor for a NaN,
// which is the finiteness checks' to report).
template <class Real, int N>
BIF_HD bool beyond_bound(const SolverSettings<Real, N>& set, const Real* y, int n) {
    if constexpr (BIF_ENSEMBLE_BOUNDED == 0) return false;
    if (!(set.bound > Real(0))) return false;
    const int k = n < set.bounded ? n : set.bounded;
    bool out = false;
    BIF_STATE_LOOP
    for (int i = 0; i < k; ++i)
        out = out || m::fabs(y[i]) > set.bound;
    return out;
}

// The same test without a branch, for the unchecked fixed-step loop: a few compares per step that
// the loop accumulates, rather than an exit it would have to test.
template <class Real, int N>
BIF_HD BIF_FORCEINLINE bool beyond_bound_flag(const SolverSettings<Real, N>& set, const Real* y, int n) {
    bool out = false;
    BIF_UNROLL
    for (int i = 0; i < N; ++i)
        out |= (i < n) & (i < set.bounded) & (m::fabs(y[i]) > set.bound);
    return out & (set.bound > Real(0));
}

} // namespace bif::detail
