// The CUDA entry of orbit refinement (bif/study/orbit_refine.h): one thread per system to refine,
// after the diagram, in the diagram's own module (the same generated model, method and Block in
// constant memory, which bif_ensemble_setup already filled). The CUDA backend appends, for a study
// that refines orbits, after the lines of ensemble_kernel.cuh:
//
//   BIF_ORBIT_KERNEL(BifModel, bif::ensemble::methods::Rkck45)
//
// which defines
//   bif_orbit_refine(OrbitView view, OrbitSettings settings, index_t count)
//       refine_orbit for systems [0, count) of the view; each thread's failure is its own status.
#pragma once

#include "bif/study/orbit_refine.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

// Threads per block of bif_orbit_refine. Its threads integrate the tangent system (N (N + 1)
// components) with the stepper's stages: more registers than the diagram's step loop, so smaller
// blocks keep more of them resident without a register bound of their own.
#ifndef BIF_ORBIT_THREADS
#define BIF_ORBIT_THREADS 64
#endif

#define BIF_ORBIT_KERNEL(ModelType, MethodTag)                                                               \
    extern "C" __global__ void __launch_bounds__(BIF_ORBIT_THREADS)                                          \
        bif_orbit_refine(const __grid_constant__ bif::ensemble::OrbitView<ModelType::real> view,             \
                         const bif::ensemble::OrbitSettings settings, bif::ensemble::index_t count) {        \
        const bif::ensemble::index_t system = bif::ensemble::index_t(blockIdx.x) * blockDim.x + threadIdx.x; \
        if (system < count)                                                                                  \
            bif::ensemble::refine_orbit<ModelType, MethodTag>(                                               \
                ModelType{}, *reinterpret_cast<const bif::ensemble::Block<ModelType>*>(bif_ensemble_block),  \
                view, settings, system);                                                                     \
    }

#endif
