// The CUDA backend: every visible NVIDIA GPU (or those a study or the options choose) running the
// per-system study programs of kernels/bif/study, one thread per system, with the generated model
// compiled through NVRTC for the device's architecture (cached on disk). Nothing of CUDA is linked:
// where the driver, NVRTC or a device is missing, availability() says why in one line and the jobs
// registry runs the CPU backend. On several GPUs, batches of systems go to whichever GPU is free
// (engine/cuda/ensemble_runner.h); the results are the same bits whichever GPUs run them.
//
// Precision: the study's choice; for "auto", double on GPUs with fast FP64 (data-centre parts) and
// ResolvedStudy::precision_for(gpu) elsewhere (float unless a tolerance is below what float honours).
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/cuda/device_info.h"
#include "engine/study/backend.h"

#include <memory>
#include <vector>

namespace bif::cuda {

struct CudaBackendOptions {
    double slice_seconds = 0.05; // target length of one kernel launch
    std::size_t max_batch = 0;   // systems per batch at most (0: as device and host memory allow)
    int max_devices = 0;         // 0: every visible GPU (or every one of `devices`)
    // Ordinals of the GPUs to run on; empty: every visible GPU. A study's "gpus" key overrides it.
    // An ordinal the driver does not list fails the run with a BackendError that names the GPUs.
    std::vector<int> devices;
    int lanes = 2; // batches in flight per GPU: 2 overlaps one's copies with the other's kernels
    // BIF_ENSEMBLE_MIN_BLOCKS of the kernel; ensemble_min_blocks_default (engine/cuda/ensemble_source.h):
    // chosen from the precision and how many systems each multiprocessor gets
    int min_blocks = -1;
    // NVRTC's --Ofast-compile=max and no register bound: a module in under a second for any small
    // model, whose kernels run tens of times slower (tests/bench/README.md). The backend's
    // quick_stand_in() is this backend, for preview passes while the optimised module compiles.
    bool quick_compile = false;
    // Tiered compile: a study whose whole-program module is not cached runs on a module compiled as
    // separate functions with the step loop's rare paths out of line (CompileRequest::separate_functions,
    // EnsembleKernelOptions::outline_rare: 25-40% less cold compile on a 16-core H100 server than the
    // whole program, kernels 1-20% slower and up to 95% for a period map with exponents, results
    // equal to a few roundings; tests/bench/README.md), while the whole-program
    // module compiles in the background into the cache for every later run (jobs::BackendUse: the app
    // tiers, a program that runs one study and exits does not).
    bool tiered_compile = false;
    // What the backend's destructor does with background compiles still under way: kill them, so that
    // closing the app never waits for a module it will not use (default), or let them finish into the
    // cache for the next process.
    bool finish_background_compiles = false;
};

// The precision a study runs in on `device` (see above).
codegen::Precision precision_on(const study::ResolvedStudy& study, const DeviceInfo& device);

std::unique_ptr<study::Backend> make_cuda_backend(CudaBackendOptions options);
std::unique_ptr<study::Backend> make_cuda_backend();

} // namespace bif::cuda
