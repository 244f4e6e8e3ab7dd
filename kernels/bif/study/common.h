// Pieces every analysis program shares: a system's inputs from the block and the view, the
// integration of one slice under the run's step budgets, and the mapping of the driver's Status to
// the per-system outcome.
#pragma once

#include "bif/integrate.h"
#include "bif/lyapunov.h"
#include "bif/study/block.h"
#include "bif/study/carry.h"
#include "bif/study/view.h"

namespace bif::ensemble {

template <bool Condition, class A, class B>
struct select_type {
    using type = A;
};
template <class A, class B>
struct select_type<false, A, B> {
    using type = B;
};

// The model a program integrates: the model itself (K = 0) or it with K tangent vectors.
template <class Model, int K>
struct integration_model {
    using type = TangentModel<Model, K>;
    BIF_HD static type make(const Model& m) { return type{m}; }
};
template <class Model>
struct integration_model<Model, 0> {
    using type = Model;
    BIF_HD static const Model& make(const Model& m) { return m; }
};

// Phase codes shared by the programs' carried state.
enum PhaseCode : int { phase_new = 0, phase_running = 1, phase_done = 2 };

// Every carry struct starts with `int phase`. A new system needs no other carried word (its struct
// starts value-initialised, as zeroed words would give) and a finished one none at all, so a system
// that starts and finishes within one call (a short fixed-step run) reads and writes one word of its
// carry instead of all of them. Returns the phase. InMemory: the carry lives in memory anyway
// (cold_carry_in_memory below), so its words are copied in place.
template <bool InMemory = false, class Carry, class Real>
BIF_HD int resume_carry(const View<Real>& v, index_t system, Carry& c) {
#if !defined(__CUDACC_RTC__) // NVRTC has no offsetof; the host compile checks the same layouts
    static_assert(__builtin_offsetof(Carry, phase) == 0, "a carry struct starts with its phase");
#endif
    const int phase = int(v.carry[system]);
    if (phase == phase_running)
        load_carry<InMemory>(v, system, 0, c);
    else
        c.phase = phase;
    return phase;
}

// BIF_ENSEMBLE_KEEP_FINISHED_CARRY (a benchmark's switch, never set by the backends): a finished
// system's whole carry is stored too, so that a benchmark can read its step counts
// (tests/bench/bench_cuda_stiff.cpp); its phase word reads done as without it.
template <bool InMemory = false, class Carry, class Real>
BIF_HD void suspend_carry(const View<Real>& v, index_t system, const Carry& c) {
#if defined(BIF_ENSEMBLE_KEEP_FINISHED_CARRY)
    if (c.phase != phase_new)
#else
    if (c.phase == phase_running)
#endif
        store_carry<InMemory>(v, system, 0, c);
    else
        v.carry[system] = (unsigned int)c.phase;
}

// The system's parameter slots (user values, its swept values, derived slots completed) and its
// initial state.
template <class Model>
BIF_HD void system_inputs(const Model& m, const Block<Model>& b, const View<typename Model::real>& v,
                          index_t system, typename Model::real* p, typename Model::real* y0) {
    const int n = m.dimension();
    for (int i = 0; i < m.param_slot_count(); ++i)
        p[i] = b.parameters[i];
    BIF_STATE_LOOP
    for (int i = 0; i < n; ++i)
        y0[i] = v.initial_override ? v.initial_override[index_t(i) * v.stride + system] : b.initial[i];
    // Slots are written through select loops over the compile-time capacities, never p[slot] with
    // a run-time slot: an array indexed at run time lives in (slow) local memory on a GPU.
    constexpr int P = capacity(Model::num_param_slots);
    for (int a = 0; a < b.axis_count; ++a) {
        const typename Model::real value = v.axis_values[index_t(a) * v.stride + system];
        const int slot = b.axis_slot[a];
        const bool to_state = b.axis_is_state[a] != 0;
        if (to_state && v.initial_override) continue;
        BIF_UNROLL
        for (int i = 0; i < Model::num_states; ++i)
            if (to_state && i == slot) y0[i] = value;
        BIF_UNROLL
        for (int i = 0; i < P; ++i)
            if (!to_state && i == slot) p[i] = value;
    }
    m.complete_parameters(p);
}

// Solver settings for a model of `Dim` components whose first n follow the base settings and whose
// tangent components (vector k, component i) take the tolerances of state i: the tangent vectors are
// kept at unit length, so the state's scale is a fair one for them.
template <int Dim, class Real, int N>
BIF_HD void widen_settings(const SolverSettings<Real, N>& base, int n, int dim,
                           SolverSettings<Real, Dim>& out) {
    for (int i = 0; i < dim; ++i) {
        out.rtol[i] = base.rtol[i % n];
        out.atol[i] = base.atol[i % n];
    }
    out.initial_step = base.initial_step;
    out.min_step = base.min_step;
    out.max_step = base.max_step;
    out.safety = base.safety;
    out.max_growth = base.max_growth;
    out.max_shrink = base.max_shrink;
    out.pi_beta = base.pi_beta;
    out.adaptive = base.adaptive;
    out.norm = base.norm;
    out.bound = base.bound;
    out.bounded = n;
    out.fixed_step = base.fixed_step;
    out.fixed_half = base.fixed_half;
    out.fixed_sixth = base.fixed_sixth;
}

// The settings a program integrates its model of `Dim` components with: the block's own (one copy
// shared by every system, in constant memory on a GPU), or, with tangent components, widened into
// `storage`.
template <int Dim, class Real, int N>
BIF_HD const SolverSettings<Real, Dim>& settings_for(const SolverSettings<Real, N>& base, int n, int dim,
                                                     SolverSettings<Real, Dim>& storage) {
    if constexpr (Dim == N) {
        (void)n;
        (void)dim;
        (void)storage;
        return base;
    } else {
        widen_settings(base, n, dim, storage);
        return storage;
    }
}

// Integration intervals (section periods, renormalisation intervals) one advance_system call takes
// at most. A call that ends mid-interval leaves each system of a GPU warp at its own point of an
// interval, and every interval end of the next call then makes the systems that got there first
// wait at the reconvergence point for the others: with calls cut by attempts alone that cost the
// Duffing benchmark 5% of its warp instructions (26.4 of 32 threads active against 27.7 in the
// hand-written kernel, the same thread work). Systems of similar dynamics take the same number of
// intervals per call and stay in step. Deterministic like the attempt budget: what ends a call
// depends only on the system's own trajectory.
inline constexpr int slice_intervals = 32;

// The step budgets of one advance_system call (`slice`, attempts left in this call, and
// `intervals`, integration intervals it may still start) and of the whole run (`used` of `total`).
struct StepBudget {
    long long slice;
    long long used;
    long long total;
    int intervals = slice_intervals;

    BIF_HD long long allowed() const {
        if (intervals <= 0) return 0;
        const long long run_left = total - used;
        return slice < run_left ? slice : run_left;
    }
    BIF_HD bool run_spent() const { return used >= total; }
};

// The parts of a study program that run once per system or once per section point (start, the
// section bookkeeping, period detection, writing results) are functions of their own on the GPU:
// inlined, they made the kernel one large function whose optimisation and register allocation took
// most of NVRTC's compile time (Duffing's sections program: 200 kB of machine code, 140 kB without),
// for code that runs a few times per thousand steps. BIF_ENSEMBLE_INLINE_COLD inlines them again
// (the tuning switch the benchmarks compare against; tests/bench/README.md).
#if defined(BIF_ENSEMBLE_INLINE_COLD)
#define BIF_COLD
#else
#define BIF_COLD BIF_GPU_NOINLINE
#endif

// Whether a program whose BIF_COLD functions hold its carry (through `this`) keeps that carry in
// local memory: out of line, they take its address. Its words are then loaded and stored in place
// (bif/study/carry.h); a carry in registers is copied through them, unrolled.
#if (defined(__CUDACC__) || defined(__CUDACC_RTC__)) && !defined(BIF_ENSEMBLE_INLINE_COLD)
inline constexpr bool cold_carry_in_memory = true;
#else
inline constexpr bool cold_carry_in_memory = false;
#endif

// The step loop of one integration interval. A model with events is integrated on copies that
// nothing else can reach, so that the compiler keeps them in registers (the carried originals have
// had their address taken by the carry copies); without events the driver copies only what a step
// touches itself. The loop is inlined into the kernel, where the block's settings are known to be in
// constant memory and become instruction operands: measured on an H200 against a loop function of
// its own (whose registers ptxas allocates apart from the program around it), Duffing RKCK45 246 ms
// against 260, Lorenz RK4 3.27 ms against 3.36. BIF_ENSEMBLE_NOINLINE_STEP_LOOP (a tuning switch,
// see tests/bench/README.md) makes it a function of its own again.
// BIF_ENSEMBLE_ADAPTIVE 1 or 0 (set by the CUDA backend from the study's solver settings): for a
// model without events, only the loop the study runs is compiled. integrate_steps chooses between
// the adaptive loop and the fixed-step one at run time, and for a method with an error estimate the
// fixed-step loop, never run by a study (bif::ensemble::StudySpec::adaptive follows the method),
// was as large as the adaptive one: Duffing's RKCK45 sections program compiled in 0.95 s instead of
// 1.65 (NVRTC 13, tests/bench/README.md). 2, the default: chosen at run time.
#ifndef BIF_ENSEMBLE_ADAPTIVE
#define BIF_ENSEMBLE_ADAPTIVE 2
#endif
template <class IM, class Stepper, class Observer>
BIF_HD BIF_FORCEINLINE Status study_steps(const IM& m, Stepper& st, SystemState<IM>& s, typename IM::real* p,
                                          typename IM::real t_end,
                                          const SolverSettings<typename IM::real, IM::num_states>& set,
                                          int max_attempts,
                                          const EventSettings<typename IM::real, IM::num_events>& ev,
                                          Observer& obs) {
    if constexpr (IM::num_events == 0 && Stepper::error_order != 0 && BIF_ENSEMBLE_ADAPTIVE == 1)
        return detail::steps_without_events(m, st, s, p, t_end, set, max_attempts, ev, obs);
    else if constexpr (IM::num_events == 0 && Stepper::error_order != 0 && BIF_ENSEMBLE_ADAPTIVE == 0)
        return detail::fixed_steps_without_events(m, st, s, p, t_end, set, max_attempts, ev, obs);
    else
        return integrate_steps(m, st, s, p, t_end, set, max_attempts, ev, obs);
}

#if defined(BIF_ENSEMBLE_NOINLINE_STEP_LOOP)
#define BIF_STEP_LOOP_LINKAGE BIF_GPU_NOINLINE
#else
#define BIF_STEP_LOOP_LINKAGE BIF_FORCEINLINE
#endif
template <class IM, class Stepper, class Observer>
BIF_HD BIF_STEP_LOOP_LINKAGE Status integrate_steps_local(
    const IM& m, Stepper& st, SystemState<IM>& s, typename IM::real* p, typename IM::real t_end,
    const SolverSettings<typename IM::real, IM::num_states>& set, int max_attempts,
    const EventSettings<typename IM::real, IM::num_events>& ev, Observer& obs) {
    if constexpr (IM::num_events == 0) return study_steps(m, st, s, p, t_end, set, max_attempts, ev, obs);
    SystemState<IM> local = s;
    typename IM::real local_p[capacity(IM::num_param_slots)];
    copy_n(p, m.param_slot_count(), local_p);
    Stepper local_stepper = st;
    const SolverSettings<typename IM::real, IM::num_states> local_set = set;
    const EventSettings<typename IM::real, IM::num_events> local_ev = ev;
    const Status r =
        study_steps(m, local_stepper, local, local_p, t_end, local_set, max_attempts, local_ev, obs);
    st = local_stepper;
    s = local;
    copy_n(local_p, m.param_slot_count(), p);
    return r;
}

// Whether parameter slot `slot` has one value for every system of the run, the block's: the CUDA
// backend lists such slots in BIF_ENSEMBLE_SHARED_PARAMETERS (engine/cuda/ensemble_source.h:
// neither swept nor assigned by a reset); elsewhere none is.
BIF_HD constexpr bool is_shared_parameter(int slot) {
#if defined(BIF_ENSEMBLE_SHARED_PARAMETERS)
    constexpr int shared[] = {BIF_ENSEMBLE_SHARED_PARAMETERS};
    for (int s : shared)
        if (s == slot) return true;
#else
    (void)slot;
#endif
    return false;
}

// The parameters an integration runs with: shared slots read from the block, the rest from the
// system's own copy. The values are the same either way; what differs is what the GPU compiler
// knows. A shared value loaded from the block in constant memory is uniform across the warp, so the
// step loop takes it as a uniform-register or constant-bank operand, as a hand-written kernel takes
// a kernel argument. From the carry it would be an ordinary register, one more operand read from
// the register file per use. On an H200, a hand-written Lorenz RK4 kernel with sigma and beta in
// ordinary registers ran 3.5% (double) and 7.5% (float) slower (tests/bench/README.md).
template <class IM>
BIF_HD void parameters_for_run(const IM& m, const typename IM::real* shared, const typename IM::real* own,
                               typename IM::real* p) {
    BIF_UNROLL
    for (int i = 0; i < capacity(IM::num_param_slots); ++i)
        if (i < m.param_slot_count()) p[i] = is_shared_parameter(i) ? shared[i] : own[i];
}

// integrate() toward t_end within the budgets, with the system's parameters `p` (and the run's shared
// ones, `shared`: the block's). A call that ran out of the slice budget leaves the system resumable
// (status Ok).
template <class IM, class Stepper, class Observer>
BIF_HD Status integrate_within(const IM& m, Stepper& st, SystemState<IM>& s, typename IM::real* p,
                               const typename IM::real* shared, typename IM::real t_end,
                               const SolverSettings<typename IM::real, IM::num_states>& set,
                               const EventSettings<typename IM::real, IM::num_events>& ev, Observer& obs,
                               StepBudget& budget) {
    const long long allowed = budget.allowed();
    if (allowed <= 0) return Status::StepBudgetSpent;
    const int max_attempts = allowed < 1000000000LL ? int(allowed) : 1000000000;
    const unsigned long long before = s.accepted + s.rejected;
    typename IM::real p_run[capacity(IM::num_param_slots)];
    parameters_for_run(m, shared, p, p_run);
    Status r = integrate_begin(m, st, s, p_run, t_end, set);
    if (r == Status::Running) r = integrate_steps_local(m, st, s, p_run, t_end, set, max_attempts, ev, obs);
    // a reset may have changed a slot that is not shared
    BIF_UNROLL
    for (int i = 0; i < capacity(IM::num_param_slots); ++i)
        if (i < m.param_slot_count() && !is_shared_parameter(i)) p[i] = p_run[i];
    const long long used = (long long)(s.accepted + s.rejected - before);
    budget.slice -= used;
    budget.used += used;
    if (r != Status::StepBudgetSpent) --budget.intervals;
    if (r == Status::StepBudgetSpent && !budget.run_spent()) s.status = Status::Ok;
    return r;
}

// The outcome of a system whose integration ended with `r` (not Ok).
BIF_HD inline int outcome_of(Status r) {
    switch (r) {
    case Status::StoppedByEvent:
        return outcome_stopped_by_model;
    case Status::StepBudgetSpent:
        return outcome_step_budget_exceeded;
    case Status::StepUnderflow:
        return outcome_step_size_underflow;
    case Status::NonFinite:
        return outcome_non_finite;
    case Status::Escaped:
        return outcome_escaped;
    case Status::EventsAccumulate:
        return outcome_events_accumulate;
    default:
        return outcome_ok;
    }
}

template <class Real>
BIF_HD Real huge_time() {
    return sizeof(Real) == 4 ? Real(1e30f) : Real(1e300);
}

} // namespace bif::ensemble
