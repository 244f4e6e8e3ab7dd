#include "engine/cuda/device_buffer.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/stream.h"

#include <stdexcept>
#include <utility>

namespace bif::cuda {

DeviceAllocation::DeviceAllocation(const Context& context, std::size_t bytes)
    : context_(context), bytes_(bytes) {
    context_.make_current();
    // cuMemAlloc rejects zero bytes; an empty buffer owns no memory.
    if (bytes_ > 0) BIF_CU_CALL(context_.driver(), cuMemAlloc_v2, &address_, bytes_);
}

DeviceAllocation::DeviceAllocation(DeviceAllocation&& other) noexcept
    : context_(other.context_), address_(std::exchange(other.address_, 0)),
      bytes_(std::exchange(other.bytes_, 0)) {}

DeviceAllocation& DeviceAllocation::operator=(DeviceAllocation&& other) noexcept {
    if (this != &other) {
        release();
        context_ = other.context_;
        address_ = std::exchange(other.address_, 0);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

DeviceAllocation::~DeviceAllocation() {
    release();
}

void DeviceAllocation::release() noexcept {
    // cuMemFree synchronises with pending work on the memory; errors cannot be reported from here.
    if (address_) {
        try {
            context_.make_current();
            context_.driver().api().cuMemFree_v2(address_);
        } catch (...) {
        }
    }
    address_ = 0;
}

void DeviceAllocation::check_length(std::size_t bytes) const {
    if (bytes > bytes_)
        throw std::length_error("copy of " + std::to_string(bytes) + " bytes into a device buffer of " +
                                std::to_string(bytes_));
}

void DeviceAllocation::upload(const void* source, std::size_t bytes) {
    check_length(bytes);
    if (bytes == 0) return;
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuMemcpyHtoD_v2, address_, source, bytes);
}

void DeviceAllocation::download(void* destination, std::size_t bytes) const {
    check_length(bytes);
    if (bytes == 0) return;
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuMemcpyDtoH_v2, destination, address_, bytes);
}

void DeviceAllocation::upload_async(const void* source, std::size_t bytes, const Stream& stream) {
    check_length(bytes);
    if (bytes == 0) return;
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuMemcpyHtoDAsync_v2, address_, source, bytes, stream.handle());
}

void DeviceAllocation::download_async(void* destination, std::size_t bytes, const Stream& stream) const {
    check_length(bytes);
    if (bytes == 0) return;
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuMemcpyDtoHAsync_v2, destination, address_, bytes, stream.handle());
}

void DeviceAllocation::fill_zero_async(const Stream& stream) {
    if (bytes_ == 0) return;
    context_.make_current();
    BIF_CU_CALL(context_.driver(), cuMemsetD8Async, address_, 0, bytes_, stream.handle());
}

} // namespace bif::cuda
