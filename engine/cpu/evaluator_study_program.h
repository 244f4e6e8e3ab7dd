// The compiler-free path: the kernels/bif/study templates instantiated in this binary over
// bif::codegen::HostModel (run-time sizes, double only) for two capacity buckets, so that a study
// runs where no C++ compiler exists or compiling failed. Slower than the native path (every model
// function is interpreted), and the Lyapunov spectrum carries as many tangent vectors as the
// bucket holds (the unused ones stay zero and are not reported).
#pragma once

#include "engine/cpu/study_program.h"
#include "engine/ensemble/study_spec.h"

#include <memory>
#include <string>

namespace bif::cpu {

// The largest model the evaluator path runs (the large bucket).
struct EvaluatorLimits {
    int states = 16;
    int param_slots = 64;
    int events = 16;
    int aux = 64;
    int observables = 32;
};

// Empty when the study fits the evaluator, else why not (one line).
std::string evaluator_unsupported_reason(const study::ResolvedStudy& study);

// Requires evaluator_unsupported_reason(study) to be empty.
std::unique_ptr<StudyProgram> make_evaluator_program(const study::ResolvedStudy& study,
                                                     const ensemble::SpecStorage& spec);

} // namespace bif::cpu
