#include "engine/jobs/installed_backends.h"

// Each stage that offers a backend declares its factory in <stage>_backend.h; CMake defines
// BIFSCOPE_HAVE_<STAGE>_BACKEND when that header exists.
#if BIFSCOPE_HAVE_CPU_BACKEND
#include "engine/cpu/cpu_backend.h"
#endif
#if BIFSCOPE_HAVE_CUDA_BACKEND
#include "engine/cuda/cuda_backend.h"
#endif

namespace bif::jobs {

BackendRegistry installed_backends(BackendUse use) {
    BackendRegistry registry;
#if BIFSCOPE_HAVE_CPU_BACKEND
    registry.add(bif::cpu::make_cpu_backend());
#endif
#if BIFSCOPE_HAVE_CUDA_BACKEND
    bif::cuda::CudaBackendOptions cuda;
    cuda.tiered_compile = use == BackendUse::Interactive;
    registry.add(bif::cuda::make_cuda_backend(cuda));
#if BIFSCOPE_HAVE_CPU_BACKEND
    // One calibration per process, read from (or measured into) the user's cache on first need.
    static const auto calibration =
        std::make_shared<SpeedCalibration>(default_speeds_path(), steady_seconds());
    registry.set_work_estimate(evaluator_stand_in(), calibration);
#endif
#else
    (void)use;
#endif
    return registry;
}

std::shared_ptr<study::Backend> evaluator_stand_in() {
#if BIFSCOPE_HAVE_CPU_BACKEND
    bif::cpu::CpuBackendOptions options;
    options.allow_native = false;
    return bif::cpu::make_cpu_backend(std::move(options));
#else
    return nullptr;
#endif
}

} // namespace bif::jobs
