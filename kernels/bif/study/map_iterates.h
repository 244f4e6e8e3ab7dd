// A map y -> f(y) iterated in registers against a limit (the study's bound, or the largest finite
// value), for the section program's fast path: the hot loop of an orbit diagram. Iterates are taken
// in untested chunks, each proved inside at its end, or retaken one tested iterate at a time, so
// the iterates taken are the ones an iterate-by-iterate test would take. The proof:
//   - with no bound, for a map whose non-finite states stay non-finite (the generated model's
//     nonfinite_persists, engine/codegen/nonfinite_persistence.h): the chunk's last state is
//     finite. No instruction per iterate: an orbit diagram's loop is bound by instruction issue,
//     where the float logistic map takes 3 per iterate (H200: a key per iterate cost it 35%).
//   - otherwise: one max of magnitude keys per component and iterate, on the integer units, so
//     that the FP64 units do nothing but the map; a value that may lie beyond is tested exactly.
#pragma once

#include "bif/kernel_support.h"

// Iterates per untested chunk (a tuning switch). The logistic diagram's kernel on an H100 took
// 4.09 ms with 8, 3.74 with 16, 3.61 with 32 and 3.52 with 64 (tests/bench/README.md); on an H200,
// with chunks proved by their last state, its transient ran at 0.88 / 0.95 / 1.00 of the
// hand-written kernel's speed in float with 32 / 64 / 128, where the chunk's bookkeeping is what
// is left. A chunk is unrolled whole for maps of up to 4 states: 128 cost the logistic and Henon
// programs 5-9% more compile time than 32.
#ifndef BIF_MAP_CHUNK
#define BIF_MAP_CHUNK 128
#endif

namespace bif::ensemble {

// Whether the model declares that its map keeps a non-finite state non-finite (generated models
// do, from their formulas; a model that does not declare it is tested at every iterate).
template <class M, class = void>
struct keeps_nonfinite {
    static constexpr bool value = false;
};
template <class M>
struct keeps_nonfinite<M, decltype(void(M::nonfinite_persists))> {
    static constexpr bool value = M::nonfinite_persists;
};

// The limit of a fast loop with no bound: its one compare per component still stops at an infinity
// or a NaN.
template <class Real>
BIF_HD constexpr Real largest_finite() {
    if constexpr (sizeof(Real) == 4)
        return Real(3.40282346638528859812e+38f);
    else
        return Real(1.7976931348623157e308);
}

// What the fast loop does with each iterate it takes: nothing (the transient), or write a row of
// the recorded observables (SectionProgram). `taken` counts the iterates of the call so far, this one
// included. An untested chunk that may have left is taken again from its start: rewind(taken) goes
// back to the row of iterate `taken` + 1, and clear(from, to) blanks the rows of iterates from + 1 to
// `to` that the untested pass wrote beyond where the tested one stopped.
struct NoVisit {
    static constexpr int unroll = BIF_MAP_CHUNK; // iterates per pass of a chunk's loop
    BIF_HD BIF_FORCEINLINE void operator()(long long, const void*) {}
    BIF_HD BIF_FORCEINLINE void rewind(long long) {}
    BIF_HD BIF_FORCEINLINE void clear(long long, long long) {}
};

template <class Model>
struct MapIterates {
    using real = typename Model::real;
    static constexpr int N = Model::num_states;
    // Iterates taken untested between two tests; a chunk whose key shows it may have left is taken
    // again from its start, one tested iterate at a time.
    static constexpr int chunk = BIF_MAP_CHUNK;

    const Model& m;
    const real* p;
    real t0;
    real limit;
    unsigned int inside_key; // magnitude_key_inside(limit)
    int n;
    // no bound: the limit is the largest finite value, and inside it is finite
    bool unbounded = false;

    // One iterate from section `section` (t = t0 + section): false, y unchanged, when the new state
    // would lie beyond the limit, or be infinite or NaN.
    BIF_HD BIF_FORCEINLINE bool step(real* y, int section) const {
        real next[N];
        m.rhs(t0 + real(section), y, p, next);
        if (largest_key(next) > inside_key) {
            bool inside = true;
            for (int i = 0; i < n; ++i)
                inside = inside && m::fabs(next[i]) <= limit;
            if (!inside) return false;
        }
        copy_n(next, n, y);
        return true;
    }

    // Up to `count` iterates from section `section`, each passed to `visit` as it is taken (in an
    // untested chunk too). Returns those taken: fewer than `count` when the next one would leave.
    template <class Visit>
    BIF_HD long long iterates(real* y, int section, long long count, Visit& visit) const {
        long long used = 0;
        while (used < count) {
            bool retaken = false;
            if (count - used >= chunk) {
                if (take_chunk(y, section, used, visit)) {
                    used += chunk;
                    continue;
                }
                visit.rewind(used);
                retaken = true;
            }
            const long long from = used, stop = min_of(count, used + chunk);
            while (used < stop && step(y, section + int(used))) {
                ++used;
                visit(used, y);
            }
            if (used < stop) {
                if (retaken) visit.clear(used, from + chunk);
                break;
            }
        }
        return used;
    }

    // Up to `count` iterates with nothing recorded (the transient).
    BIF_HD long long unrecorded(real* y, int section, long long count) const {
        NoVisit none;
        return iterates(y, section, count, none);
    }

  private:
    // One untested chunk from iterate `used`: true when it is proved inside (y is then the chunk's
    // last iterate); false, y back at the chunk's start, when it may have left.
    template <class Visit>
    BIF_HD BIF_FORCEINLINE bool take_chunk(real* y, int section, long long used, Visit& visit) const {
        real start[N];
        copy_n(y, n, start);
        if (proved_by_finiteness()) {
            untested_run<false>(y, section, used, visit);
            if (all_finite_by_bits(y)) return true;
        } else if (untested_run<true>(y, section, used, visit) <= inside_key) {
            return true;
        }
        copy_n(start, n, y);
        return false;
    }

    BIF_HD BIF_FORCEINLINE bool proved_by_finiteness() const {
        if constexpr (keeps_nonfinite<Model>::value)
            return unbounded; // a chunk whose last state is finite had every iterate finite
        else
            return false;
    }

    // A chunk's iterates, each visited; Keyed: returns the largest magnitude key among them.
    template <bool Keyed, class Visit>
    BIF_HD BIF_FORCEINLINE unsigned int untested_run(real* y, int section, long long used,
                                                     Visit& visit) const {
        unsigned int key = 0;
        // unrolled for small maps only: a large one's right-hand side copied a chunk's worth of times
        // would cost compile time for no gain
        BIF_UNROLL_IF(N <= 4 ? Visit::unroll : 1)
        for (int k = 0; k < chunk; ++k) {
            real next[N];
            m.rhs(t0 + real(section + int(used) + k), y, p, next);
            if constexpr (Keyed) key = largest_key(next, key);
            copy_n(next, n, y);
            visit(used + k + 1, y);
        }
        return key;
    }

    BIF_HD BIF_FORCEINLINE bool all_finite_by_bits(const real* y) const {
#if defined(BIF_MAP_UNTESTED_FOR_TIMING)
        (void)y;
        return true;
#endif
        bool finite = true;
        BIF_UNROLL
        for (int i = 0; i < N; ++i)
            if (i < n) finite = finite && finite_by_bits(y[i]);
        return finite;
    }

    BIF_HD BIF_FORCEINLINE unsigned int largest_key(const real* y, unsigned int key = 0) const {
#if defined(BIF_MAP_UNTESTED_FOR_TIMING) // what the tests cost, in a benchmark whose maps never leave
        (void)y;
        return key;
#endif
        BIF_UNROLL
        for (int i = 0; i < N; ++i)
            if (i < n) key = max_magnitude_key(key, y[i]);
        return key;
    }
};

} // namespace bif::ensemble
