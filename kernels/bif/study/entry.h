// The per-system study program: the one piece of code that the CPU backend (a loop over systems on
// a thread pool) and the CUDA backend (one thread per system) both run.
//
// Design
//   Inputs are split by who reads them. What every system shares (solver settings, t0, the user
//   parameters and initial state, the analysis settings) sits in one trivially copyable
//   Block<Model> (bif/study/block.h), built from the model-independent StudySpec (spec.h) by
//   make_block: the CPU passes a pointer to it, a CUDA kernel takes it by value or from constant
//   memory. What differs per system sits in structure-of-arrays global arrays described by a View
//   (view.h): the swept values, the carried state, the outputs; element c of system s at
//   [s + c * stride], so that a warp's accesses coalesce.
//
//   A system advances in slices: advance_system(m, block, view, s, budget) loads the system's
//   carried state (the driver's SystemState: t, h, y, event values and counts, controller memory;
//   the parameters, which resets may change; section and renormalisation counters; interval
//   extremes and accessory sums; Lyapunov sums and tangent vectors) from the carry words, integrates
//   at most `budget` attempted steps, stores the state back and returns true once the system is
//   finished (its status written). The carry starts zeroed (phase_new). Slices keep GPU launches
//   short (~100 ms) and let the CPU honour a cancel within 100 ms; the step size carries over, so a
//   slice boundary costs one right-hand side evaluation, not a step-size ramp. Stepper stages are
//   not carried (recomputed at the next slice), so register pressure is the stepper's plus the
//   active program's carry: each analysis has its own carry struct and only one is live.
//
//   Programs (program_of(block) picks one; advance_program<Program, Method> instantiates only it):
//     program_sections           bifurcation, map, basins (section_program.h)
//     program_sections_exponent  map with the largest Lyapunov exponent (one tangent vector)
//     program_lyapunov_largest   Lyapunov, K = 1 (lyapunov_program.h)
//     program_lyapunov_spectrum  Lyapunov, K = N (Gram-Schmidt over all N vectors)
//     program_trajectory         dense output at given times (trajectory_program.h)
//   Exponents are per unit time of the flow; for a forced system the stroboscopic-map exponent is
//   the forcing period times it.
//
//   Continuation (each parameter value starting from its neighbour's final state) is a chain the
//   host runs: it sets View::initial_override from the previous system's View::final_state.
//   Attractor matching across systems (basins) is host post-processing of the section points.
//
// Rules as in kernels/: header-only, BIF_HD, no heap, no exceptions, no std::, fixed-size arrays,
// templates on the model and the method; compiles as host C++ and through NVRTC.
#pragma once

#include "bif/study/lyapunov_program.h"
#include "bif/study/map_diagram.h"
#include "bif/study/methods.h"
#include "bif/study/section_program.h"
#include "bif/study/trajectory_program.h"

// BIF_MAP_DIAGRAM_INLINE 0 (set by the CUDA entry, which runs the pass as a kernel of its own):
// advance_program leaves the map-diagram pass (bif/study/map_diagram.h) out.
#ifndef BIF_MAP_DIAGRAM_INLINE
#define BIF_MAP_DIAGRAM_INLINE 1
#endif

namespace bif::ensemble {

// Every backend advances a system in calls of this many attempted steps, or of slice_intervals
// integration intervals (bif/study/common.h) when those take fewer. A call restarts the stepper
// (its first stage is evaluated afresh), which can change the last digits of what follows; with the
// same boundaries everywhere a result depends neither on timing nor on the backend's launch sizes.
inline constexpr long long slice_steps = 4096;

enum ProgramCode : int {
    program_sections = 0,
    program_sections_exponent = 1,
    program_lyapunov_largest = 2,
    program_lyapunov_spectrum = 3,
    program_trajectory = 4,
};

inline BIF_HD int program_of(int analysis, int map_exponent, int lyapunov_spectrum) {
    switch (analysis) {
    case analysis_map:
        return map_exponent ? program_sections_exponent : program_sections;
    case analysis_lyapunov:
        return lyapunov_spectrum ? program_lyapunov_spectrum : program_lyapunov_largest;
    case analysis_trajectory:
        return program_trajectory;
    default:
        return program_sections;
    }
}

inline BIF_HD int program_of(const StudySpec& s) {
    return program_of(s.analysis, s.map_exponent, s.lyapunov_spectrum);
}

template <class Model>
BIF_HD int program_of(const Block<Model>& b) {
    return program_of(b.analysis, b.map_exponent, b.lyapunov_spectrum);
}

// `calls` calls of `budget` attempted steps each, the carry loaded once and stored once: for a map,
// whose iterates cost a few operations each, the carry's round trip through memory at every call
// of slice_steps would cost as much as the iterates (the results are those of separate calls).
template <int Program, class Method, class Model>
BIF_HD bool advance_program(const Model& m, const Block<Model>& b, const View<typename Model::real>& v,
                            index_t system, long long budget, long long calls = 1) {
    if constexpr (Program == program_sections && BIF_MAP_DIAGRAM_INLINE &&
                  map_diagram_compiles<Model, Method>())
        if (map_diagram_applies(b) &&
            map_diagram_system(m, b, v, system, max_of(budget, map_diagram_iterates)))
            return true;
    if constexpr (Program == program_sections)
        return advance_sections<Model, Method, 0>(m, b, v, system, budget, calls);
    if constexpr (Program == program_sections_exponent)
        return advance_sections<Model, Method, 1>(m, b, v, system, budget, calls);
    if constexpr (Program == program_lyapunov_largest)
        return advance_lyapunov<Model, Method, 1>(m, b, v, system, budget, calls);
    if constexpr (Program == program_lyapunov_spectrum)
        return advance_lyapunov<Model, Method, Model::num_states>(m, b, v, system, budget, calls);
    if constexpr (Program == program_trajectory)
        return advance_trajectory<Model, Method>(m, b, v, system, budget, calls);
    return true;
}

// Whether a GPU launch keeps the carry in registers between its calls of slice_steps: for maps.
// Flows keep a call per load and store, the code their benchmarks were tuned with.
template <class Method, class Model>
BIF_HD constexpr bool carry_stays_between_calls() {
    return detail::steps_iterates<typename Method::template stepper<Model>>::value;
}

// Carry words per system that program needs.
template <int Program, class Model>
BIF_HD constexpr int program_carry_words() {
    if constexpr (Program == program_sections) return words_of<SectionCarry<Model, 0>>();
    if constexpr (Program == program_sections_exponent) return words_of<SectionCarry<Model, 1>>();
    if constexpr (Program == program_lyapunov_largest) return words_of<LyapunovCarry<Model, 1>>();
    if constexpr (Program == program_lyapunov_spectrum)
        return words_of<LyapunovCarry<Model, Model::num_states>>();
    if constexpr (Program == program_trajectory) return words_of<TrajectoryCarry<Model>>();
    return 0;
}

// Every program, chosen at run time (the evaluator path; a compiled entry instantiates one).
template <class Method, class Model>
BIF_HD bool advance_system(const Model& m, const Block<Model>& b, const View<typename Model::real>& v,
                           index_t system, long long budget) {
    switch (program_of(b)) {
    case program_sections_exponent:
        return advance_program<program_sections_exponent, Method>(m, b, v, system, budget);
    case program_lyapunov_largest:
        return advance_program<program_lyapunov_largest, Method>(m, b, v, system, budget);
    case program_lyapunov_spectrum:
        return advance_program<program_lyapunov_spectrum, Method>(m, b, v, system, budget);
    case program_trajectory:
        return advance_program<program_trajectory, Method>(m, b, v, system, budget);
    default:
        return advance_program<program_sections, Method>(m, b, v, system, budget);
    }
}

template <class Model>
BIF_HD int carry_words(const Block<Model>& b) {
    switch (program_of(b)) {
    case program_sections_exponent:
        return program_carry_words<program_sections_exponent, Model>();
    case program_lyapunov_largest:
        return program_carry_words<program_lyapunov_largest, Model>();
    case program_lyapunov_spectrum:
        return program_carry_words<program_lyapunov_spectrum, Model>();
    case program_trajectory:
        return program_carry_words<program_trajectory, Model>();
    default:
        return program_carry_words<program_sections, Model>();
    }
}

} // namespace bif::ensemble
