// The device arrays of one batch of systems in the layout of bif::ensemble::View (structure of
// arrays, stride = the batch's system count), in the run's precision (4- or 8-byte reals). Sized
// once for the largest batch and reused: upload() takes a host batch (engine/cpu/batch_arrays.h,
// doubles) and starts it (carry zeroed, statuses not_run, outputs NaN); download() converts the
// outputs back into it. Only what the study records crosses the bus: the carry stays on the GPU.
#pragma once

#include "bif/study/view.h"
#include "engine/cpu/batch_arrays.h"
#include "engine/cuda/device_buffer.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace bif::cuda {

class Stream;

struct BatchShape {
    std::size_t capacity = 0; // systems
    int axes = 0, carry_words = 0, point_rows = 0, point_columns = 0, scalar_columns = 0, states = 0;
    int output_times = 0;
    int real_bytes = 8;

    // Device bytes per system (for sizing batches to the GPU's free memory).
    std::size_t bytes_per_system() const;
};

class EnsembleBatch {
  public:
    // `times`: the shared trajectory output times (may be empty).
    EnsembleBatch(const Context& context, const BatchShape& shape, const std::vector<double>& times);

    const BatchShape& shape() const { return shape_; }
    std::size_t count() const { return count_; }

    // Starts the host batch's systems (at most capacity); asynchronous on `stream` (the host batch's
    // arrays must stay untouched until the stream is synchronised).
    void upload(const cpu::BatchArrays& host, const Stream& stream);
    // Statuses, rows, points and scalars into the host batch; synchronises the stream.
    void download(cpu::BatchArrays& host, const Stream& stream);

    template <class Real>
    ensemble::View<Real> view() const;

  private:
    template <class Real>
    Real* pointer(const DeviceAllocation& a) const;
    void to_device(DeviceAllocation& target, const std::vector<double>& values, const Stream& stream);
    void from_device(const DeviceAllocation& source, std::vector<double>& values, const Stream& stream);

    BatchShape shape_;
    std::size_t count_ = 0;
    DeviceAllocation axis_values_, times_, carry_, points_, scalars_, status_, rows_filled_;
    std::vector<unsigned char> staging_; // host copies in the device's precision
    std::vector<unsigned char> axis_staging_;
};

} // namespace bif::cuda
