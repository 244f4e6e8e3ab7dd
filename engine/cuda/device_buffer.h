// GPU memory: DeviceAllocation owns untyped bytes, DeviceBuffer<T> is the typed view that kernels
// take as an argument (it is passed as a T* pointing at element 0). Structure-of-arrays layouts
// (value[system + component * N]) are the caller's indexing; a buffer is one flat array.
//
//   DeviceBuffer<double> y(context, n);
//   y.upload(host_values);            // synchronous
//   y.download_async(out, stream);    // `out` must outlive the stream's work
#pragma once

#include "engine/cuda/context.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace bif::cuda {

class Stream;

class DeviceAllocation {
  public:
    DeviceAllocation(const Context& context, std::size_t bytes); // throws CudaError (out of memory, ...)
    DeviceAllocation(DeviceAllocation&& other) noexcept;
    DeviceAllocation& operator=(DeviceAllocation&& other) noexcept;
    DeviceAllocation(const DeviceAllocation&) = delete;
    DeviceAllocation& operator=(const DeviceAllocation&) = delete;
    ~DeviceAllocation();

    std::size_t bytes() const { return bytes_; }
    driver::CUdeviceptr address() const { return address_; }
    const Context& context() const { return context_; }

    // Byte copies of at most bytes(); throw std::length_error when longer.
    void upload(const void* source, std::size_t bytes);
    void download(void* destination, std::size_t bytes) const;
    void upload_async(const void* source, std::size_t bytes, const Stream& stream);
    void download_async(void* destination, std::size_t bytes, const Stream& stream) const;
    void fill_zero_async(const Stream& stream);

  private:
    void release() noexcept;
    void check_length(std::size_t bytes) const;
    Context context_;
    driver::CUdeviceptr address_ = 0;
    std::size_t bytes_ = 0;
};

template <class T>
class DeviceBuffer {
    static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable values");

  public:
    DeviceBuffer(const Context& context, std::size_t count)
        : memory_(context, count * sizeof(T)), count_(count) {}

    std::size_t size() const { return count_; }
    std::size_t bytes() const { return memory_.bytes(); }
    // The device address of element 0, as the kernel sees it.
    T* device_pointer() const { return reinterpret_cast<T*>(static_cast<std::uintptr_t>(memory_.address())); }

    // Copies of up to size() elements, starting at element 0.
    void upload(std::span<const T> values) { memory_.upload(values.data(), values.size_bytes()); }
    void download(std::span<T> values) const { memory_.download(values.data(), values.size_bytes()); }
    void upload_async(std::span<const T> values, const Stream& stream) {
        memory_.upload_async(values.data(), values.size_bytes(), stream);
    }
    void download_async(std::span<T> values, const Stream& stream) const {
        memory_.download_async(values.data(), values.size_bytes(), stream);
    }
    void fill_zero_async(const Stream& stream) { memory_.fill_zero_async(stream); }
    std::vector<T> to_vector() const {
        std::vector<T> values(count_);
        download(values);
        return values;
    }

  private:
    DeviceAllocation memory_;
    std::size_t count_;
};

} // namespace bif::cuda
