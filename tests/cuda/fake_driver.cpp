// A stand-in for libcuda.so.1 with every entry point the loader looks up, for testing the loader's
// reasons on machines without a GPU. Its answers come from the environment:
//   BIF_FAKE_DRIVER_VERSION  what cuDriverGetVersion reports (default 13000)
//   BIF_FAKE_CUINIT          what cuInit returns (default 0)
//   BIF_FAKE_DEVICE_COUNT    what cuDeviceGetCount reports (default 0)
//   BIF_FAKE_HOST_ALLOC      what cuMemHostAlloc returns (default 0: it allocates, with malloc)
// bif_fake_pinned_live() counts the cuMemHostAlloc allocations not yet freed. Built with
// BIF_FAKE_DRIVER_WITHOUT_PINNED it lacks cuMemHostAlloc and cuMemFreeHost, as an old driver might.
// Every other entry point fails with error 999 (CUDA_ERROR_UNKNOWN): nothing may reach them.
#include <atomic>
#include <cstddef>
#include <cstdlib>

namespace {
int from_environment(const char* name, int fallback) {
    const char* value = std::getenv(name);
    return value ? std::atoi(value) : fallback;
}
std::atomic<int> pinned_live{0};
} // namespace

extern "C" {
int bif_fake_pinned_live() {
    return pinned_live.load();
}
#ifndef BIF_FAKE_DRIVER_WITHOUT_PINNED
int cuMemHostAlloc(void** pointer, std::size_t bytes, unsigned) {
    const int result = from_environment("BIF_FAKE_HOST_ALLOC", 0);
    if (result != 0) return result;
    *pointer = std::malloc(bytes);
    ++pinned_live;
    return 0;
}
int cuMemFreeHost(void* pointer) {
    std::free(pointer);
    --pinned_live;
    return 0;
}
#endif

int cuDriverGetVersion(int* version) {
    *version = from_environment("BIF_FAKE_DRIVER_VERSION", 13000);
    return 0;
}
int cuInit(unsigned) {
    return from_environment("BIF_FAKE_CUINIT", 0);
}
int cuDeviceGetCount(int* count) {
    *count = from_environment("BIF_FAKE_DEVICE_COUNT", 0);
    return 0;
}
int cuGetErrorName(int error, const char** name) {
    *name = error == 100 ? "CUDA_ERROR_NO_DEVICE" : error == 999 ? "CUDA_ERROR_UNKNOWN" : "CUDA_ERROR_FAKE";
    return 0;
}
int cuGetErrorString(int, const char** text) {
    *text = "fake driver error";
    return 0;
}

#define BIF_FAKE_ENTRY(name)                                                                                 \
    int name() {                                                                                             \
        return 999;                                                                                          \
    }
BIF_FAKE_ENTRY(cuDeviceGet)
BIF_FAKE_ENTRY(cuDeviceGetName)
BIF_FAKE_ENTRY(cuDeviceGetAttribute)
BIF_FAKE_ENTRY(cuDeviceTotalMem_v2)
BIF_FAKE_ENTRY(cuDevicePrimaryCtxRetain)
BIF_FAKE_ENTRY(cuDevicePrimaryCtxRelease_v2)
BIF_FAKE_ENTRY(cuCtxSetCurrent)
BIF_FAKE_ENTRY(cuCtxSynchronize)
BIF_FAKE_ENTRY(cuMemGetInfo_v2)
BIF_FAKE_ENTRY(cuMemAlloc_v2)
BIF_FAKE_ENTRY(cuMemFree_v2)
BIF_FAKE_ENTRY(cuMemcpyHtoD_v2)
BIF_FAKE_ENTRY(cuMemcpyDtoH_v2)
BIF_FAKE_ENTRY(cuMemcpyHtoDAsync_v2)
BIF_FAKE_ENTRY(cuMemcpyDtoHAsync_v2)
BIF_FAKE_ENTRY(cuMemsetD8Async)
BIF_FAKE_ENTRY(cuStreamCreate)
BIF_FAKE_ENTRY(cuStreamDestroy_v2)
BIF_FAKE_ENTRY(cuStreamSynchronize)
BIF_FAKE_ENTRY(cuEventCreate)
BIF_FAKE_ENTRY(cuEventDestroy_v2)
BIF_FAKE_ENTRY(cuEventRecord)
BIF_FAKE_ENTRY(cuEventSynchronize)
BIF_FAKE_ENTRY(cuEventElapsedTime)
BIF_FAKE_ENTRY(cuModuleLoadDataEx)
BIF_FAKE_ENTRY(cuModuleUnload)
BIF_FAKE_ENTRY(cuModuleGetFunction)
BIF_FAKE_ENTRY(cuModuleGetGlobal_v2)
BIF_FAKE_ENTRY(cuFuncGetAttribute)
BIF_FAKE_ENTRY(cuLaunchKernel)
BIF_FAKE_ENTRY(cuOccupancyMaxActiveBlocksPerMultiprocessor)
}
