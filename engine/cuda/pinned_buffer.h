// Page-locked ("pinned") host memory: the copy engines read and write it directly, so a
// cuMemcpy*Async from or into it runs while kernels run, where a copy from pageable memory is staged
// through the driver and holds the calling thread. Where the driver has no cuMemHostAlloc, or cannot
// pin more memory, the buffer is ordinary memory instead: copies stay correct, only not overlapped.
//
//   PinnedBuffer staging(context, bytes);
//   allocation.download_async(staging.data(), bytes, stream); stream.synchronize();
#pragma once

#include "engine/cuda/context.h"

#include <cstddef>
#include <memory>

namespace bif::cuda {

class PinnedBuffer {
  public:
    PinnedBuffer() = default; // no memory
    // Pinned for every context (CU_MEMHOSTALLOC_PORTABLE); keeps `context` alive, since the memory
    // goes when the context does.
    PinnedBuffer(const Context& context, std::size_t bytes);
    // Pinned through whichever context is current on the calling thread; for a driver without a
    // device to make a Context on (the tests' fake driver).
    PinnedBuffer(const DriverLibrary& driver, std::size_t bytes);
    PinnedBuffer(PinnedBuffer&& other) noexcept;
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    ~PinnedBuffer();

    unsigned char* data() { return static_cast<unsigned char*>(memory_); }
    const unsigned char* data() const { return static_cast<const unsigned char*>(memory_); }
    std::size_t size() const { return bytes_; }
    bool pinned() const { return pinned_; } // false: pageable fallback (or no memory)

  private:
    void allocate(std::size_t bytes);
    void release() noexcept;

    const DriverLibrary* driver_ = nullptr;
    std::shared_ptr<const detail::ContextState> context_; // null for the driver-only constructor
    void* memory_ = nullptr;
    std::size_t bytes_ = 0;
    bool pinned_ = false;
};

} // namespace bif::cuda
