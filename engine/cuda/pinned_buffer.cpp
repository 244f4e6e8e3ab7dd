#include "engine/cuda/pinned_buffer.h"

#include "engine/cuda/driver_library.h"

#include <cstdlib>
#include <new>
#include <utility>

namespace bif::cuda {

PinnedBuffer::PinnedBuffer(const Context& context, std::size_t bytes)
    : driver_(&context.driver()), context_(context.state()) {
    context.make_current();
    allocate(bytes);
}

PinnedBuffer::PinnedBuffer(const DriverLibrary& driver, std::size_t bytes) : driver_(&driver) {
    allocate(bytes);
}

void PinnedBuffer::allocate(std::size_t bytes) {
    if (bytes == 0) return;
    const driver::EntryPoints& api = driver_->api();
    if (api.cuMemHostAlloc) {
        const driver::CUresult result = api.cuMemHostAlloc(&memory_, bytes, driver::CU_MEMHOSTALLOC_PORTABLE);
        if (result == driver::CUDA_SUCCESS) {
            bytes_ = bytes;
            pinned_ = true;
            return;
        }
        // Pinned memory is a limited resource of the operating system; running out of it is no
        // reason to fail the copy. Any other error is the driver's, and is reported.
        memory_ = nullptr;
        if (result != driver::CUDA_ERROR_OUT_OF_MEMORY)
            driver_->check(result, "cuMemHostAlloc", __FILE__, __LINE__);
    }
    memory_ = std::malloc(bytes);
    if (!memory_) throw std::bad_alloc();
    bytes_ = bytes;
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : driver_(other.driver_), context_(std::move(other.context_)),
      memory_(std::exchange(other.memory_, nullptr)), bytes_(std::exchange(other.bytes_, 0)),
      pinned_(std::exchange(other.pinned_, false)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
        release();
        driver_ = other.driver_;
        context_ = std::move(other.context_);
        memory_ = std::exchange(other.memory_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        pinned_ = std::exchange(other.pinned_, false);
    }
    return *this;
}

PinnedBuffer::~PinnedBuffer() {
    release();
}

void PinnedBuffer::release() noexcept {
    if (memory_ && pinned_) {
        // Errors cannot be reported from here; freeing fails only while the driver shuts down.
        try {
            if (context_) context_->make_current();
            driver_->api().cuMemFreeHost(memory_);
        } catch (...) {
        }
    } else {
        std::free(memory_);
    }
    memory_ = nullptr;
    bytes_ = 0;
    pinned_ = false;
}

} // namespace bif::cuda
