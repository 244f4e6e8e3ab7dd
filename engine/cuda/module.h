// A compiled module loaded on a GPU, and its kernels.
//
//   Module module(context, compiled);                       // from ModuleCompiler::compile
//   Kernel kernel = module.kernel("bif::ensemble<BifModel>"); // a name expression, or an extern "C" name
//   kernel.launch(LaunchShape::linear(n, 128), stream, y, p, n); // buffers pass as T*, values as themselves
//
// launch() checks each argument's size against the kernel's parameter where the driver can tell
// (12.4+), and that the kernel has that many parameters: a mismatch is a std::invalid_argument
// instead of a corrupted launch. Too few arguments go unnoticed (the driver answers that only with
// an error, which would count against every correct launch under compute-sanitizer).
#pragma once

#include "engine/cuda/compile_request.h"
#include "engine/cuda/context.h"
#include "engine/cuda/device_buffer.h"

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace bif::cuda {

class Stream;

namespace detail {
class ModuleState;
}

struct Dim3 {
    unsigned x = 1;
    unsigned y = 1;
    unsigned z = 1;
};

struct LaunchShape {
    Dim3 grid;
    Dim3 block;
    unsigned shared_bytes = 0; // dynamic shared memory per block

    // ceil(threads / block_size) blocks of block_size threads in x.
    static LaunchShape linear(std::size_t threads, unsigned block_size);
};

// How a launch argument reaches the kernel: buffers as their element pointer, values unchanged.
template <class T>
T* kernel_argument(const DeviceBuffer<T>& buffer) {
    return buffer.device_pointer();
}
template <class T>
requires std::is_trivially_copyable_v<T>
const T& kernel_argument(const T& value) {
    return value;
}

class Kernel {
  public:
    const std::string& name() const { return name_; }
    int registers() const;             // per thread
    int local_bytes() const;           // per thread; non-zero means spills or indexed arrays
    int static_shared_bytes() const;   // per block
    int max_threads_per_block() const; // for this kernel's register use
    int max_active_blocks_per_multiprocessor(int block_size, std::size_t dynamic_shared_bytes = 0) const;

    template <class... Args>
    void launch(const LaunchShape& shape, const Stream& stream, const Args&... args) const {
        auto values = std::make_tuple(kernel_argument(args)...);
        std::array<void*, sizeof...(Args) + 1> addresses{};
        std::array<std::size_t, sizeof...(Args) + 1> sizes{};
        std::apply(
            [&](auto&... value) {
                [[maybe_unused]] std::size_t i = 0;
                ((addresses[i] = const_cast<void*>(static_cast<const void*>(&value)),
                  sizes[i++] = sizeof(value)),
                 ...);
            },
            values);
        launch_raw(shape, stream, addresses.data(), sizes.data(), sizeof...(Args));
    }

  private:
    friend class Module;
    Kernel(std::shared_ptr<const detail::ModuleState> module, std::string name, driver::CUfunction function);
    int attribute(int which) const;
    void check_arguments(const std::size_t* sizes, std::size_t count) const;
    void launch_raw(const LaunchShape& shape, const Stream& stream, void** arguments,
                    const std::size_t* sizes, std::size_t count) const;

    std::shared_ptr<const detail::ModuleState> module_;
    std::string name_;
    driver::CUfunction function_;
};

class Module {
  public:
    // Throws CudaError with the driver's JIT log (for PTX) when the image does not load.
    Module(const Context& context, const CompiledModule& compiled);

    // `name` is one of the module's name expressions (see CompileRequest) or a symbol such as an
    // extern "C" kernel's name. Throws CudaError (CUDA_ERROR_NOT_FOUND) when absent.
    Kernel kernel(const std::string& name) const;

    // Copies `bytes` from the host into the module's __constant__ or __device__ variable `name`
    // (an extern "C" name). Throws CudaError when absent, std::length_error when it is smaller.
    void set_global(const std::string& name, const void* data, std::size_t bytes) const;
    const Context& context() const;

  private:
    std::shared_ptr<const detail::ModuleState> state_;
};

} // namespace bif::cuda
