// The NVRTC program of one study: the generated model (engine/codegen) followed by the study's
// entry kernels (kernels/bif/cuda/ensemble_kernel.cuh) instantiated for its program and method.
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/cuda/compile_request.h"

#include <string>

namespace bif::study {
struct ResolvedStudy;
}

namespace bif::cuda {

// Threads per block of bif_ensemble_advance (the kernel's __launch_bounds__).
inline constexpr unsigned ensemble_threads = 128;

// The lines after the model: the kernels for `program` (bif::ensemble::ProgramCode) and
// `method_tag` (a tag of bif::ensemble::methods, e.g. "Rk4"), on the model type `model_type`.
std::string ensemble_entry_source(const std::string& model_type, int program, const char* method_tag);

// The whole request: part "model" (generated source) and part "entry".
CompileRequest ensemble_request(const std::string& model_source, const std::string& model_type, int program,
                                const char* method_tag);

// The request for a resolved study in the given precision.
CompileRequest ensemble_request(const study::ResolvedStudy& study, codegen::Precision precision, int program);

} // namespace bif::cuda
