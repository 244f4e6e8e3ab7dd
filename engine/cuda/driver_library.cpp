#include "engine/cuda/driver_library.h"

#include "engine/cuda/errors.h"

namespace bif::cuda {

namespace {

template <class Function>
bool bind(const SharedLibrary& library, Function& slot, const char* symbol) {
    slot = reinterpret_cast<Function>(library.symbol(symbol));
    return slot != nullptr;
}

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
        if (!bind(*library_, api_.cuDriverGetVersion, "cuDriverGetVersion") ||
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
    bool ok = true;
    auto need = [&](auto& slot, const char* symbol) {
        if (!bind(so, slot, symbol) && ok) {
            ok = false;
            missing = symbol;
        }
    };
    need(api_.cuInit, "cuInit");
    need(api_.cuGetErrorName, "cuGetErrorName");
    need(api_.cuGetErrorString, "cuGetErrorString");
    need(api_.cuDeviceGetCount, "cuDeviceGetCount");
    need(api_.cuDeviceGet, "cuDeviceGet");
    need(api_.cuDeviceGetName, "cuDeviceGetName");
    need(api_.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    need(api_.cuDeviceTotalMem_v2, "cuDeviceTotalMem_v2");
    need(api_.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    need(api_.cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease_v2");
    need(api_.cuCtxSetCurrent, "cuCtxSetCurrent");
    need(api_.cuCtxSynchronize, "cuCtxSynchronize");
    need(api_.cuMemGetInfo_v2, "cuMemGetInfo_v2");
    need(api_.cuMemAlloc_v2, "cuMemAlloc_v2");
    need(api_.cuMemFree_v2, "cuMemFree_v2");
    need(api_.cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2");
    need(api_.cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2");
    need(api_.cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2");
    need(api_.cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync_v2");
    need(api_.cuMemsetD8Async, "cuMemsetD8Async");
    need(api_.cuStreamCreate, "cuStreamCreate");
    need(api_.cuStreamDestroy_v2, "cuStreamDestroy_v2");
    need(api_.cuStreamSynchronize, "cuStreamSynchronize");
    need(api_.cuEventCreate, "cuEventCreate");
    need(api_.cuEventDestroy_v2, "cuEventDestroy_v2");
    need(api_.cuEventRecord, "cuEventRecord");
    need(api_.cuEventSynchronize, "cuEventSynchronize");
    // CUDA 12.8 added the _v2 of cuEventElapsedTime; both have the same signature and meaning here.
    if (!bind(so, api_.cuEventElapsedTime, "cuEventElapsedTime_v2"))
        need(api_.cuEventElapsedTime, "cuEventElapsedTime");
    need(api_.cuModuleLoadDataEx, "cuModuleLoadDataEx");
    need(api_.cuModuleUnload, "cuModuleUnload");
    need(api_.cuModuleGetFunction, "cuModuleGetFunction");
    need(api_.cuFuncGetAttribute, "cuFuncGetAttribute");
    need(api_.cuLaunchKernel, "cuLaunchKernel");
    need(api_.cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    bind(so, api_.cuFuncGetParamInfo, "cuFuncGetParamInfo");
    return ok;
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
