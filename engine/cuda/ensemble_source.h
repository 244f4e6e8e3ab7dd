// The NVRTC program of one study: the generated model (engine/codegen) followed by the study's
// entry kernels (kernels/bif/cuda/ensemble_kernel.cuh) instantiated for its program and method.
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/cuda/compile_request.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bif::study {
struct ResolvedStudy;
}

namespace bif::cuda {

// Threads per block of bif_ensemble_advance (the kernel's __launch_bounds__).
inline constexpr unsigned ensemble_threads = 128;

// Blocks of ensemble_threads per multiprocessor that bif_ensemble_advance's register allocation
// must allow (BIF_ENSEMBLE_MIN_BLOCKS in kernels/bif/cuda/ensemble_kernel.cuh): for models of up to
// small_model_states states 7 in double (72 registers), 6 in float (80), the fastest of the bounds
// measured on the benchmarks (tests/bench/README.md); larger models get 5 (the step of a 28-state
// model does not fit 72 registers, and ptxas spent minutes on the spill code). An ensemble that
// gives each multiprocessor fewer blocks than that gets a looser bound (at least 3: 168
// registers), as it cannot use the occupancy. 0: the compiler's choice; ensemble_min_blocks_default:
// this rule.
// A Rosenbrock method (`rosenbrock`: Rosenbrock23, Rodas4) in double keeps the iteration matrix, its
// factors and the stages besides the state: 4 blocks (128 registers) for small models, 3 (168) for
// larger ones; at 72 registers a 3-state Robertson step spilled 340 bytes (tests/bench/README.md,
// stiff kernels). In float it fits the explicit methods' bound.
inline constexpr int ensemble_min_blocks_default = -1;
inline constexpr int small_model_states = 4;
int ensemble_min_blocks(codegen::Precision precision, int states, std::size_t systems = 0,
                        int multiprocessors = 0, bool rosenbrock = false);
// The rule above for `study`'s model and method.
int ensemble_min_blocks(const study::ResolvedStudy& study, codegen::Precision precision,
                        std::size_t systems = 0, int multiprocessors = 0);

// Whether the model's transcendental functions are compiled out of line (BIF_OUTLINE_MATH in
// kernels/bif/config.h): when the step kernel would inline them at outline_math_calls sites or more.
// Each inlined double exp or cos is ~220 instructions; out of line, the Hodgkin-Huxley and
// Keller-Miksis programs compiled in 8.7 and 6.4 s instead of 15.4 and 15.9 s on an H100, while
// Duffing's single cos cost 7% of its kernel speed that way (tests/bench/README.md). A call in the
// right-hand side or in a reset counts once; one in the event functions event_evaluation_sites times,
// the places the step loop evaluates them (step end, event location, crossings inside the step): the
// bouncing ball's sin(w t) in its event was 578 of its step kernel's 2480 instructions.
inline constexpr int outline_math_calls = 3;
inline constexpr int event_evaluation_sites = 3;
bool ensemble_outline_math(const std::string& model_source);

// Above this many states the kernels keep their loops over the states as loops (BIF_ROLL_STATE_LOOPS
// in kernels/bif/kernel_support.h): unrolled, the step kernel grows with the states (a copy of the
// loop body per state, at every stage, solve and norm) where a loop's does not, and the arrays of
// so big a model live in local memory either way. The 202-state Schnakenberg chain's module had not
// compiled after 5 minutes on an H200 with every loop unrolled (tests/bench/README.md, big models).
// Such a model also keeps its once-per-system parts out of line in float (inline_cold), where their
// copies of the carry through registers would be as long as the state.
inline constexpr int rolled_loop_states = 32;
// The states of a generated model (its num_states constant); 0 when the text has none.
int generated_model_states(const std::string& model_source);

// What the entry lines tell the kernel headers about the study, each a compile-time switch.
struct EnsembleKernelOptions {
    int min_blocks = ensemble_min_blocks_default; // BIF_ENSEMBLE_MIN_BLOCKS
    // BIF_OUTLINE_MATH; unset: ensemble_outline_math of the model source
    std::optional<bool> outline_math;
    // BIF_ROLL_STATE_LOOPS; unset: whether the model source has more than rolled_loop_states states
    std::optional<bool> roll_state_loops;
    // BIF_ENSEMBLE_INLINE_COLD: the programs' once-per-system parts inlined into the kernel (bif/study/
    // common.h). Set for float studies: out of line they cost Lorenz RK4 float 4-7% of its speed on an
    // H100, while in double they cost nothing measurable and save 35-45% of the compile.
    bool inline_cold = false;
    bool observes_steps = true; // false (bif::ensemble::observes_steps of the spec): no step observer
    // with observes_steps, BIF_ENSEMBLE_OBSERVES_STEPS 2 (bif/study/section_program.h): one step loop,
    // whose observer idles outside the recorded phase, instead of a second loop without it. Set for
    // adaptive methods (a fixed-step one runs its observed steps in the slower checked loop).
    bool one_observed_loop = false;
    // BIF_ENSEMBLE_BOUNDED (kernels/bif/integrate.h): whether the study has a bound; unset: decided
    // in the kernel at run time
    std::optional<bool> bounded;
    // BIF_ENSEMBLE_ADAPTIVE (bif/study/common.h): whether the study's steps are adaptive
    // (StudySpec::adaptive), so that a model without events compiles only that step loop; unset:
    // both loops, chosen at run time
    std::optional<bool> adaptive;
    // BIF_ENSEMBLE_SHARED_PARAMETERS: parameter slots with one value for every system of the run
    // (shared_parameter_slots), read from the block in constant memory by the step loop
    std::vector<int> shared_parameters;
    // Compile the program's functions apart and link them (CompileRequest::separate_functions), the
    // register bound passed as --maxrregcount (ensemble_max_registers). Set for ODE studies whose
    // cold parts are out of line: NVRTC then compiles those beside the step kernel. A map's diagram
    // kernel has a tighter bound of its own, and maps compile quickly anyway.
    bool separate_functions = false;
    // With separate_functions, BIF_OUTLINE_RARE (bif/config.h) in the separately compiled module only
    // (CompileRequest::separate_options): the step loop's rare paths (the start of an interval,
    // located event crossings) become functions compiled beside the step kernel. A first-tier module
    // trades some kernel speed for that compile time; the whole-program module keeps them inlined.
    bool outline_rare = true;
    // The orbit refinement kernel (kernels/bif/cuda/orbit_kernel.cuh) beside the study's, for a study
    // that refines its orbits (study::refines_orbits): the same module, model and Block.
    bool orbits = false;
};

// Threads per block of bif_orbit_refine (BIF_ORBIT_THREADS).
inline constexpr unsigned orbit_threads = 64;

// The registers per thread that `min_blocks` blocks of ensemble_threads leave on a multiprocessor
// (65536 of them, allocated per thread in eights), as ptxas derives them from __launch_bounds__;
// 0 for no bound.
int ensemble_max_registers(int min_blocks);

// The measurement switches of the step loops, from the environment (`tests/device/round.sh compile
// --settings` compares kernels under them): BIFSCOPE_CUDA_EVERY_STEP_LOOP=1
// compiles every loop the kernel may choose at run time, as before BIF_ENSEMBLE_ADAPTIVE and
// BIF_ENSEMBLE_OBSERVES_STEPS 2; BIFSCOPE_CUDA_ONE_OBSERVED_LOOP=0 only the observer's second loop;
// BIFSCOPE_CUDA_OUTLINE_RARE=0 keeps the rare paths inlined in a separately compiled module too;
// BIFSCOPE_CUDA_ROLL_STATE_LOOPS=0 or 1 overrides the rolled_loop_states rule.
void apply_step_loop_switches(EnsembleKernelOptions& options);

// The lines after the model: the kernels for `program` (bif::ensemble::ProgramCode) and
// `method_tag` (a tag of bif::ensemble::methods, e.g. "Rk4"), on the model type `model_type`.
std::string ensemble_entry_source(const std::string& model_type, int program, const char* method_tag,
                                  const EnsembleKernelOptions& options = {});

// The whole request: part "switches" (the options' defines that the model's own includes must see),
// part "model" (generated source) and part "entry".
CompileRequest ensemble_request(const std::string& model_source, const std::string& model_type, int program,
                                const char* method_tag, const EnsembleKernelOptions& options = {});

// The request for a resolved study in the given precision.
CompileRequest ensemble_request(const study::ResolvedStudy& study, codegen::Precision precision, int program,
                                int min_blocks = ensemble_min_blocks_default);

// The user parameter slots whose value is the same for every system of the study: neither swept
// nor assigned by an event's reset. (Derived slots are computed per system and never listed.)
std::vector<int> shared_parameter_slots(const study::ResolvedStudy& study);

} // namespace bif::cuda
