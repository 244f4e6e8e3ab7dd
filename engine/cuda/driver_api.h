// The slice of the CUDA driver API that Bifscope uses, declared here so that no CUDA header is
// needed to build. These are the driver's stable C ABI: the types are opaque handles and ints, the
// functions are looked up by their versioned names (cuMemAlloc_v2, ...) in libcuda.so.1 at run time.
// Values are those of cuda.h; only what the backend uses is declared.
#pragma once

#include <cstddef>

namespace bif::cuda::driver {

static_assert(sizeof(void*) == 8, "the CUDA backend supports 64-bit hosts only");

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
using CUcontext = CUctx_st*;
struct CUmod_st;
using CUmodule = CUmod_st*;
struct CUfunc_st;
using CUfunction = CUfunc_st*;
struct CUstream_st;
using CUstream = CUstream_st*;
struct CUevent_st;
using CUevent = CUevent_st*;
using CUjit_option = int;
struct CUgraphicsResource_st;
using CUgraphicsResource = CUgraphicsResource_st*;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;

// CUdevice_attribute
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
inline constexpr int CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13; // kHz
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_INTEGRATED = 18;
inline constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82;
inline constexpr int CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO = 87;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
inline constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
inline constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
inline constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;

// CUjit_option
inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER = 3;
inline constexpr CUjit_option CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
inline constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0x0;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;

// OpenGL interoperability (cudaGL.h): CUgraphicsRegisterFlags and CUGLDeviceList.
inline constexpr unsigned CU_GRAPHICS_REGISTER_FLAGS_NONE = 0x0;
inline constexpr unsigned CU_GRAPHICS_REGISTER_FLAGS_WRITE_DISCARD = 0x2;
inline constexpr unsigned CU_GL_DEVICE_LIST_ALL = 0x1;

// The entry points, named after the symbols they are loaded from. Optional ones may be null.
struct EntryPoints {
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int* version);
    CUresult (*cuGetErrorName)(CUresult error, const char** name);
    CUresult (*cuGetErrorString)(CUresult error, const char** text);
    CUresult (*cuDeviceGetCount)(int* count);
    CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
    CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
    CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
    CUresult (*cuDeviceTotalMem_v2)(std::size_t* bytes, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
    CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice device);
    CUresult (*cuCtxSetCurrent)(CUcontext context);
    CUresult (*cuCtxSynchronize)();
    CUresult (*cuMemGetInfo_v2)(std::size_t* free, std::size_t* total);
    CUresult (*cuMemAlloc_v2)(CUdeviceptr* pointer, std::size_t bytes);
    CUresult (*cuMemFree_v2)(CUdeviceptr pointer);
    CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr destination, const void* source, std::size_t bytes);
    CUresult (*cuMemcpyDtoH_v2)(void* destination, CUdeviceptr source, std::size_t bytes);
    CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr destination, const void* source, std::size_t bytes,
                                     CUstream stream);
    CUresult (*cuMemcpyDtoHAsync_v2)(void* destination, CUdeviceptr source, std::size_t bytes,
                                     CUstream stream);
    CUresult (*cuMemsetD8Async)(CUdeviceptr destination, unsigned char value, std::size_t count,
                                CUstream stream);
    CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
    CUresult (*cuStreamDestroy_v2)(CUstream stream);
    CUresult (*cuStreamSynchronize)(CUstream stream);
    CUresult (*cuEventCreate)(CUevent* event, unsigned flags);
    CUresult (*cuEventDestroy_v2)(CUevent event);
    CUresult (*cuEventRecord)(CUevent event, CUstream stream);
    CUresult (*cuEventSynchronize)(CUevent event);
    CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start,
                                   CUevent end); // cuEventElapsedTime_v2 where the driver has it
    CUresult (*cuModuleLoadDataEx)(CUmodule* module, const void* image, unsigned count, CUjit_option* options,
                                   void** values);
    CUresult (*cuModuleUnload)(CUmodule module);
    CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name);
    CUresult (*cuModuleGetGlobal_v2)(CUdeviceptr* pointer, std::size_t* bytes, CUmodule module,
                                     const char* name);
    CUresult (*cuFuncGetAttribute)(int* value, int attribute, CUfunction function);
    CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                               unsigned block_x, unsigned block_y, unsigned block_z, unsigned shared_bytes,
                               CUstream stream, void** parameters, void** extra);
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, CUfunction function, int block_size,
                                                            std::size_t dynamic_shared_bytes);
    // Optional (driver 12.4+): lets a launch check its argument count and sizes.
    CUresult (*cuFuncGetParamInfo)(CUfunction function, std::size_t index, std::size_t* offset,
                                   std::size_t* size);
    // Optional as a pair: page-locked host memory (PinnedBuffer falls back to pageable memory).
    CUresult (*cuMemHostAlloc)(void** pointer, std::size_t bytes, unsigned flags);
    CUresult (*cuMemFreeHost)(void* pointer);
    // Optional (OpenGL interop, see gl_interop.h): null where the driver has no GL support, as a
    // group: one missing leaves them all null. `buffer` is a GLuint.
    CUresult (*cuGLGetDevices_v2)(unsigned* count, CUdevice* devices, unsigned capacity, unsigned which);
    CUresult (*cuGraphicsGLRegisterBuffer)(CUgraphicsResource* resource, unsigned buffer, unsigned flags);
    CUresult (*cuGraphicsUnregisterResource)(CUgraphicsResource resource);
    CUresult (*cuGraphicsMapResources)(unsigned count, CUgraphicsResource* resources, CUstream stream);
    CUresult (*cuGraphicsUnmapResources)(unsigned count, CUgraphicsResource* resources, CUstream stream);
    CUresult (*cuGraphicsResourceGetMappedPointer_v2)(CUdeviceptr* pointer, std::size_t* bytes,
                                                      CUgraphicsResource resource);
};

} // namespace bif::cuda::driver
