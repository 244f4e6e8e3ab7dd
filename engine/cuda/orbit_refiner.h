// Orbit refinement of a finished diagram on one GPU (kernels/bif/cuda/orbit_kernel.cuh): the systems
// of ensemble::make_orbit_batch up in the run's precision, one thread each in bif_orbit_refine of the
// diagram's own module (loaded again on the GPU, its Block set up from the spec), the outputs back
// into the result's orbit columns.
#pragma once

#include "engine/cuda/compile_request.h"
#include "engine/cuda/context.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/result.h"

namespace bif::cuda {

struct OrbitRefinementTimes {
    double total_seconds = 0.0;  // batch, module load, copies, kernel, storing
    double kernel_seconds = 0.0; // the refinement kernel alone, by the GPU's clock
    std::size_t systems = 0;     // refined
};

// `module` was compiled with EnsembleKernelOptions::orbits for this study. Throws CudaError.
OrbitRefinementTimes refine_orbits_on_gpu(const Context& context, const CompiledModule& module,
                                          const study::ResolvedStudy& study,
                                          const ensemble::SpecStorage& spec, int real_bytes,
                                          study::Result& result);

} // namespace bif::cuda
