#include "engine/cuda/driver_library.h"

#include "engine/cuda/errors.h"

namespace bif::cuda {

namespace {

std::string version_text(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

} // namespace

const DriverLibrary& DriverLibrary::instance() noexcept {
    // Never unloaded: contexts and modules may outlive static destruction, and libraries unloaded
    // at exit hide their own allocations from leak checkers.
    static const DriverLibrary* const process_driver = load({"libcuda.so.1"}).release();
    return *process_driver;
}

std::unique_ptr<DriverLibrary> DriverLibrary::load(const std::vector<std::string>& candidates) noexcept {
    std::unique_ptr<DriverLibrary> driver(new DriverLibrary());
    driver->initialise(candidates);
    return driver;
}

void DriverLibrary::initialise(const std::vector<std::string>& candidates) noexcept {
    try {
        std::string failure;
        library_ = SharedLibrary::open_first(candidates, failure);
        if (!library_) {
            unavailable_reason_ = "no NVIDIA driver: libcuda.so.1 not found (" + failure + ")";
            return;
        }
        std::string missing;
        if (!library_->bind(api_.cuDriverGetVersion, "cuDriverGetVersion") ||
            api_.cuDriverGetVersion(&version_) != driver::CUDA_SUCCESS) {
            unavailable_reason_ =
                "NVIDIA driver unusable: " + library_->name() + " has no working cuDriverGetVersion";
            return;
        }
        if (version_ < minimum_version) {
            unavailable_reason_ = "NVIDIA driver too old: it supports CUDA " + version_text(version_) + ", " +
                                  version_text(minimum_version) + " or newer is needed";
            return;
        }
        if (!resolve_entry_points(missing)) {
            unavailable_reason_ = "NVIDIA driver too old: " + library_->name() + " (CUDA " +
                                  version_text(version_) + ") lacks " + missing;
            return;
        }
        const driver::CUresult init = api_.cuInit(0);
        if (init == driver::CUDA_ERROR_NO_DEVICE) {
            unavailable_reason_ = "no CUDA device: cuInit reports CUDA_ERROR_NO_DEVICE (100)";
            return;
        }
        if (init != driver::CUDA_SUCCESS) {
            unavailable_reason_ = "CUDA driver initialisation failed: cuInit returned " + error_name(init) +
                                  " (" + std::to_string(init) + "): " + error_text(init);
            return;
        }
        const driver::CUresult counted = api_.cuDeviceGetCount(&device_count_);
        if (counted != driver::CUDA_SUCCESS || device_count_ <= 0) {
            device_count_ = 0;
            unavailable_reason_ =
                "no CUDA device visible to the driver (CUDA " + version_text(version_) + ")";
            return;
        }
        unavailable_reason_.clear();
    } catch (...) {
        // Only allocation can throw above; keep the promise that loading never throws.
        unavailable_reason_ = "CUDA driver loading failed: out of memory";
    }
}

bool DriverLibrary::resolve_entry_points(std::string& missing) noexcept {
    const SharedLibrary& so = *library_;
    RequiredSymbols required(so);
    required.need(api_.cuInit, "cuInit");
    required.need(api_.cuGetErrorName, "cuGetErrorName");
    required.need(api_.cuGetErrorString, "cuGetErrorString");
    required.need(api_.cuDeviceGetCount, "cuDeviceGetCount");
    required.need(api_.cuDeviceGet, "cuDeviceGet");
    required.need(api_.cuDeviceGetName, "cuDeviceGetName");
    required.need(api_.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    required.need(api_.cuDeviceTotalMem_v2, "cuDeviceTotalMem_v2");
    required.need(api_.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    required.need(api_.cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease_v2");
    required.need(api_.cuCtxSetCurrent, "cuCtxSetCurrent");
    required.need(api_.cuCtxSynchronize, "cuCtxSynchronize");
    required.need(api_.cuMemGetInfo_v2, "cuMemGetInfo_v2");
    required.need(api_.cuMemAlloc_v2, "cuMemAlloc_v2");
    required.need(api_.cuMemFree_v2, "cuMemFree_v2");
    required.need(api_.cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2");
    required.need(api_.cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2");
    required.need(api_.cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2");
    required.need(api_.cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync_v2");
    required.need(api_.cuMemsetD8Async, "cuMemsetD8Async");
    required.need(api_.cuStreamCreate, "cuStreamCreate");
    required.need(api_.cuStreamDestroy_v2, "cuStreamDestroy_v2");
    required.need(api_.cuStreamSynchronize, "cuStreamSynchronize");
    required.need(api_.cuEventCreate, "cuEventCreate");
    required.need(api_.cuEventDestroy_v2, "cuEventDestroy_v2");
    required.need(api_.cuEventRecord, "cuEventRecord");
    required.need(api_.cuEventSynchronize, "cuEventSynchronize");
    // CUDA 12.8 added the _v2 of cuEventElapsedTime; both have the same signature and meaning here.
    if (!so.bind(api_.cuEventElapsedTime, "cuEventElapsedTime_v2"))
        required.need(api_.cuEventElapsedTime, "cuEventElapsedTime");
    required.need(api_.cuModuleLoadDataEx, "cuModuleLoadDataEx");
    required.need(api_.cuModuleUnload, "cuModuleUnload");
    required.need(api_.cuModuleGetFunction, "cuModuleGetFunction");
    required.need(api_.cuModuleGetGlobal_v2, "cuModuleGetGlobal_v2");
    required.need(api_.cuFuncGetAttribute, "cuFuncGetAttribute");
    required.need(api_.cuLaunchKernel, "cuLaunchKernel");
    required.need(api_.cuOccupancyMaxActiveBlocksPerMultiprocessor,
                  "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    so.bind(api_.cuFuncGetParamInfo, "cuFuncGetParamInfo");
    // Pinned memory only speeds copies up, so a driver without it still runs (see PinnedBuffer);
    // one of the pair alone is as good as neither.
    if (!so.bind(api_.cuMemHostAlloc, "cuMemHostAlloc") || !so.bind(api_.cuMemFreeHost, "cuMemFreeHost")) {
        api_.cuMemHostAlloc = nullptr;
        api_.cuMemFreeHost = nullptr;
    }
    // OpenGL interop only lets results reach the screen without a copy through the host.
    if (!so.bind(api_.cuGLGetDevices_v2, "cuGLGetDevices_v2") ||
        !so.bind(api_.cuGraphicsGLRegisterBuffer, "cuGraphicsGLRegisterBuffer") ||
        !so.bind(api_.cuGraphicsUnregisterResource, "cuGraphicsUnregisterResource") ||
        !so.bind(api_.cuGraphicsMapResources, "cuGraphicsMapResources") ||
        !so.bind(api_.cuGraphicsUnmapResources, "cuGraphicsUnmapResources") ||
        !so.bind(api_.cuGraphicsResourceGetMappedPointer_v2, "cuGraphicsResourceGetMappedPointer_v2")) {
        api_.cuGLGetDevices_v2 = nullptr;
        api_.cuGraphicsGLRegisterBuffer = nullptr;
        api_.cuGraphicsUnregisterResource = nullptr;
        api_.cuGraphicsMapResources = nullptr;
        api_.cuGraphicsUnmapResources = nullptr;
        api_.cuGraphicsResourceGetMappedPointer_v2 = nullptr;
    }
    if (required.missing() == nullptr) return true;
    missing = required.missing();
    return false;
}

const driver::EntryPoints& DriverLibrary::api() const {
    if (!available()) throw CudaUnavailable(unavailable_reason_);
    return api_;
}

void DriverLibrary::check(driver::CUresult result, const char* call, const char* file, int line) const {
    if (result == driver::CUDA_SUCCESS) return;
    throw CudaError(result, error_name(result), error_text(result), call,
                    std::string(file) + ":" + std::to_string(line));
}

std::string DriverLibrary::error_name(driver::CUresult result) const noexcept {
    const char* name = nullptr;
    if (api_.cuGetErrorName && api_.cuGetErrorName(result, &name) == driver::CUDA_SUCCESS && name)
        return name;
    return "CUresult " + std::to_string(result);
}

std::string DriverLibrary::error_text(driver::CUresult result) const noexcept {
    const char* text = nullptr;
    if (api_.cuGetErrorString && api_.cuGetErrorString(result, &text) == driver::CUDA_SUCCESS && text)
        return text;
    return "unknown error";
}

} // namespace bif::cuda
