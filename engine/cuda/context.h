// A GPU to work on: the device's primary context, retained for as long as any object made from it
// lives (streams, buffers, modules keep it alive). Copies share the same context. Every operation
// of the launch helpers makes the context current on the calling thread first, so they may be used
// from any thread.
#pragma once

#include "engine/cuda/device_info.h"
#include "engine/cuda/driver_api.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace bif::cuda {

class DriverLibrary;

namespace detail {
class ContextState;
}

class Context {
  public:
    // Throws CudaUnavailable when the driver is unavailable, std::out_of_range for a bad ordinal,
    // CudaError when the driver fails.
    explicit Context(int ordinal = 0);
    Context(const DriverLibrary& driver, int ordinal);

    const DeviceInfo& device() const;
    const DriverLibrary& driver() const;
    void make_current() const;
    void synchronize() const;        // waits for all work of this context
    std::size_t free_memory() const; // bytes

    // For the other launch helpers.
    const std::shared_ptr<const detail::ContextState>& state() const { return state_; }

  private:
    std::shared_ptr<const detail::ContextState> state_;
};

// The contexts of the given devices, each retained on a thread of its own (a retain costs tens of
// milliseconds per device, mostly spent in the driver, so N devices take about as long as one).
// Rethrows the first failure once every thread has ended.
std::vector<Context> retain_contexts(const std::vector<int>& ordinals);

namespace detail {

class ContextState {
  public:
    ContextState(const DriverLibrary& driver, int ordinal);
    ContextState(const ContextState&) = delete;
    ContextState& operator=(const ContextState&) = delete;
    ~ContextState();

    const DriverLibrary& driver() const { return driver_; }
    const DeviceInfo& device() const { return device_; }
    void make_current() const;

  private:
    const DriverLibrary& driver_;
    DeviceInfo device_;
    driver::CUdevice handle_ = 0;
    driver::CUcontext context_ = nullptr;
};

} // namespace detail
} // namespace bif::cuda
