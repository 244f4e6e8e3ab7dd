// The CUDA entry of the per-system study program (bif/study/entry.h): one thread per system, the
// same advance_program the CPU backend calls, resumable in slices.
//
// The CUDA backend compiles, through NVRTC, the generated model (the struct BifModel) followed by
// this header and a few lines that instantiate it for the study's program and method:
//
//   BIF_ENSEMBLE_KERNELS(BifModel, program, bif::ensemble::methods::Rk4)
//
// which defines four extern "C" kernels (their symbols are their names, no name expressions):
//   bif_ensemble_sizes(int* out)        out = {sizeof(Block), carry words, abi_version, sizeof(View),
//                                       1 when bif_map_diagram can take systems of this program}
//   bif_ensemble_setup(StudySpec, Block* out)   one thread: make_block from a spec whose arrays are
//                                       in device memory; the host copies the result into the
//                                       __constant__ variable bif_ensemble_block
//   bif_ensemble_advance(View, count, budget, unsigned* unfinished)
//                                       one slice of at most `budget` attempted steps per system;
//                                       each thread block adds 1 to *unfinished when any of its
//                                       systems is not finished (the host launches again until 0)
//   bif_map_diagram(View, count, budget) the map-diagram pass (bif/study/map_diagram.h) for every
//                                       new system it can finish, launched before bif_ensemble_advance
//                                       with a register bound of its own: its loop needs few
//                                       registers, so more warps share a multiprocessor
//
// The Block lives in constant memory: uniform across the warp, and where the compiler sees its
// address space (code inlined into the kernel) a setting is an instruction operand (c[bank][offset])
// rather than a register held through the step loop. The View is a __grid_constant__ parameter so
// that taking its address (the programs hold `const View&`) does not copy it to local memory.
// Systems already finished (status written) return before loading their carry.
#pragma once

// NVRTC has no __builtin_memcpy (bif/study/carry.h uses it); its device memcpy is built in.
#if defined(__CUDACC_RTC__) && !defined(__builtin_memcpy)
#define __builtin_memcpy memcpy
#endif

// the map-diagram pass runs as a kernel of its own (bif_map_diagram), not inside the advance kernel
#define BIF_MAP_DIAGRAM_INLINE 0
#include "bif/study/entry.h"

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)

namespace bif::ensemble::cuda {

template <class Model, int Program, class Method>
__device__ void sizes(int* out) {
    out[0] = int(sizeof(Block<Model>));
    out[1] = program_carry_words<Program, Model>();
    out[2] = abi_version;
    out[3] = int(sizeof(View<typename Model::real>));
    out[4] = Program == program_sections && map_diagram_compiles<Model, Method>() ? 1 : 0;
}

template <class Model>
__device__ void setup(const StudySpec& spec, Block<Model>* out) {
    if (blockIdx.x == 0 && threadIdx.x == 0) *out = make_block(Model{}, spec);
}

template <class Model, int Program, class Method>
__device__ void advance(const Block<Model>& block, const View<typename Model::real>& view, index_t count,
                        long long budget, unsigned int* unfinished) {
    const index_t system = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
    bool pending = false;
    // `budget` is a multiple of slice_steps, spent in calls of slice_steps as the CPU does
    if (system < count && view.status[system] == outcome_not_run) {
        pending = true;
        if constexpr (carry_stays_between_calls<Method, Model>())
            pending = !advance_program<Program, Method>(Model{}, block, view, system, slice_steps,
                                                        (budget + slice_steps - 1) / slice_steps);
        else
            for (long long spent = 0; pending && spent < budget; spent += slice_steps)
                pending = !advance_program<Program, Method>(Model{}, block, view, system, slice_steps);
    }
    // every thread reaches the barrier: no early return above
    if (__syncthreads_or(pending) && threadIdx.x == 0) atomicAdd(unfinished, 1u);
}

template <class Model, int Program, class Method>
__device__ void map_diagram(const Block<Model>& block, const View<typename Model::real>& view, index_t count,
                            long long budget) {
    if constexpr (Program == program_sections && map_diagram_compiles<Model, Method>()) {
        const index_t system = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
        if (system < count && map_diagram_applies(block))
            map_diagram_system(Model{}, block, view, system, max_of(budget, map_diagram_iterates));
    }
}

} // namespace bif::ensemble::cuda

// Threads per block of the advance kernel; the host launches with the same number.
#ifndef BIF_ENSEMBLE_THREADS
#define BIF_ENSEMBLE_THREADS 128
#endif
// Blocks per multiprocessor the register allocation must allow (__launch_bounds__' second
// argument): 65536 / (threads * blocks) registers per thread at most. The whole program is one
// kernel, so without a bound its rarely run parts (start, section bookkeeping, outputs) set the
// register count, and with it how few warps share a multiprocessor; the step loop is a function of
// its own (bif/study/common.h) whose spills ptxas reports apart. The host picks the bound.
#ifndef BIF_ENSEMBLE_MIN_BLOCKS
#define BIF_ENSEMBLE_MIN_BLOCKS 1
#endif

// The map-diagram pass's own register bound, blocks per multiprocessor (a tuning switch overrides
// it). Unbound, ptxas gave the logistic diagram's pass 40 registers in double through NVRTC but 72
// through nvcc, and the Henon diagram's 108 (the unrolled chunk's loads hoisted ahead). In double
// 12 blocks (40 registers) left both without spills where 16 (32 registers) spilled 16 bytes; in
// float 16 blocks spill nothing (sm_90, tests/bench/kernel_report).
#ifdef BIF_MAP_DIAGRAM_MIN_BLOCKS
#define BIF_MAP_DIAGRAM_BLOCKS(ModelType) BIF_MAP_DIAGRAM_MIN_BLOCKS
#else
#define BIF_MAP_DIAGRAM_BLOCKS(ModelType) (sizeof(ModelType::real) == 4 ? 16 : 12)
#endif

// The Block as words (a class with member initialisers cannot be a __constant__ object itself),
// viewed as the Block by the advance kernel.
#define BIF_ENSEMBLE_KERNELS(ModelType, ProgramCode, MethodTag)                                              \
    extern "C" {                                                                                             \
    __constant__ unsigned long long bif_ensemble_block[(sizeof(bif::ensemble::Block<ModelType>) + 7) / 8];   \
    }                                                                                                        \
    extern "C" __global__ void bif_ensemble_sizes(int* out) {                                                \
        bif::ensemble::cuda::sizes<ModelType, ProgramCode, MethodTag>(out);                                  \
    }                                                                                                        \
    extern "C" __global__ void bif_ensemble_setup(const bif::ensemble::StudySpec spec,                       \
                                                  bif::ensemble::Block<ModelType>* out) {                    \
        bif::ensemble::cuda::setup<ModelType>(spec, out);                                                    \
    }                                                                                                        \
    extern "C" __global__ void __launch_bounds__(BIF_ENSEMBLE_THREADS, BIF_ENSEMBLE_MIN_BLOCKS)              \
        bif_ensemble_advance(const __grid_constant__ bif::ensemble::View<ModelType::real> view,              \
                             bif::ensemble::index_t count, long long budget, unsigned int* unfinished) {     \
        bif::ensemble::cuda::advance<ModelType, ProgramCode, MethodTag>(                                     \
            *reinterpret_cast<const bif::ensemble::Block<ModelType>*>(bif_ensemble_block), view, count,      \
            budget, unfinished);                                                                             \
    }                                                                                                        \
    extern "C" __global__ void __launch_bounds__(BIF_ENSEMBLE_THREADS, BIF_MAP_DIAGRAM_BLOCKS(ModelType))    \
        bif_map_diagram(const __grid_constant__ bif::ensemble::View<ModelType::real> view,                   \
                        bif::ensemble::index_t count, long long budget) {                                    \
        bif::ensemble::cuda::map_diagram<ModelType, ProgramCode, MethodTag>(                                 \
            *reinterpret_cast<const bif::ensemble::Block<ModelType>*>(bif_ensemble_block), view, count,      \
            budget);                                                                                         \
    }

#endif
