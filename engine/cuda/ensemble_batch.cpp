#include "engine/cuda/ensemble_batch.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace bif::cuda {

namespace {

std::size_t at_least_one(std::size_t bytes) {
    return std::max<std::size_t>(bytes, 16);
}

// Every byte 0xFF: a NaN in float and in double alike (the study's "missing value").
void fill_nan_async(const DeviceAllocation& a, std::size_t bytes, const Stream& stream) {
    if (bytes == 0) return;
    const Context& context = a.context();
    context.make_current();
    BIF_CU_CALL(context.driver(), cuMemsetD8Async, a.address(), 0xFF, bytes, stream.handle());
}

template <class Real>
void convert_out(const std::vector<double>& values, std::vector<unsigned char>& staging) {
    staging.resize(values.size() * sizeof(Real));
    Real* out = reinterpret_cast<Real*>(staging.data());
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = static_cast<Real>(values[i]);
}

template <class Real>
void convert_in(const std::vector<unsigned char>& staging, std::vector<double>& values) {
    const Real* in = reinterpret_cast<const Real*>(staging.data());
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<double>(in[i]);
}

} // namespace

std::size_t BatchShape::bytes_per_system() const {
    const std::size_t reals = std::size_t(axes) + std::size_t(point_rows) * std::size_t(point_columns) +
                              std::size_t(scalar_columns);
    return reals * std::size_t(real_bytes) + 4 * std::size_t(carry_words) + 2 * sizeof(int);
}

EnsembleBatch::EnsembleBatch(const Context& context, const BatchShape& shape,
                             const std::vector<double>& times)
    : shape_(shape),
      axis_values_(context, at_least_one(std::size_t(shape.axes) * shape.capacity * shape.real_bytes)),
      times_(context, at_least_one(times.size() * shape.real_bytes)),
      carry_(context, at_least_one(std::size_t(shape.carry_words) * shape.capacity * 4)),
      points_(context, at_least_one(std::size_t(shape.point_rows) * std::size_t(shape.point_columns) *
                                    shape.capacity * shape.real_bytes)),
      scalars_(context, at_least_one(std::size_t(shape.scalar_columns) * shape.capacity * shape.real_bytes)),
      status_(context, at_least_one(shape.capacity * sizeof(int))),
      rows_filled_(context, at_least_one(shape.capacity * sizeof(int))) {
    if (times.empty()) return;
    if (shape.real_bytes == 4)
        convert_out<float>(times, staging_);
    else
        convert_out<double>(times, staging_);
    times_.upload(staging_.data(), staging_.size());
}

void EnsembleBatch::to_device(DeviceAllocation& target, const std::vector<double>& values,
                              const Stream& stream) {
    if (values.empty()) return;
    if (shape_.real_bytes == 4)
        convert_out<float>(values, axis_staging_);
    else
        convert_out<double>(values, axis_staging_);
    target.upload_async(axis_staging_.data(), axis_staging_.size(), stream);
}

void EnsembleBatch::from_device(const DeviceAllocation& source, std::vector<double>& values,
                                const Stream& stream) {
    if (values.empty()) return;
    staging_.resize(values.size() * std::size_t(shape_.real_bytes));
    source.download_async(staging_.data(), staging_.size(), stream);
    stream.synchronize();
    if (shape_.real_bytes == 4)
        convert_in<float>(staging_, values);
    else
        convert_in<double>(staging_, values);
}

void EnsembleBatch::upload(const cpu::BatchArrays& host, const Stream& stream) {
    count_ = std::min(host.count, shape_.capacity);
    to_device(axis_values_, host.axis_values, stream);
    const Context& context = carry_.context();
    context.make_current();
    const auto& api = context.driver();
    BIF_CU_CALL(api, cuMemsetD8Async, carry_.address(), 0, std::size_t(shape_.carry_words) * count_ * 4,
                stream.handle());
    BIF_CU_CALL(api, cuMemsetD8Async, status_.address(), 0, count_ * sizeof(int), stream.handle());
    BIF_CU_CALL(api, cuMemsetD8Async, rows_filled_.address(), 0, count_ * sizeof(int), stream.handle());
    const std::size_t rb = std::size_t(shape_.real_bytes);
    fill_nan_async(points_, std::size_t(shape_.point_rows) * std::size_t(shape_.point_columns) * count_ * rb,
                   stream);
    fill_nan_async(scalars_, std::size_t(shape_.scalar_columns) * count_ * rb, stream);
}

void EnsembleBatch::download(cpu::BatchArrays& host, const Stream& stream) {
    status_.download_async(host.status.data(), host.status.size() * sizeof(int), stream);
    rows_filled_.download_async(host.rows_filled.data(), host.rows_filled.size() * sizeof(int), stream);
    from_device(points_, host.points, stream);
    from_device(scalars_, host.scalars, stream);
    stream.synchronize();
}

template <class Real>
Real* EnsembleBatch::pointer(const DeviceAllocation& a) const {
    return reinterpret_cast<Real*>(static_cast<std::uintptr_t>(a.address()));
}

template <class Real>
ensemble::View<Real> EnsembleBatch::view() const {
    ensemble::View<Real> v;
    v.stride = count_;
    v.axis_values = shape_.axes > 0 ? pointer<Real>(axis_values_) : nullptr;
    v.times = shape_.output_times > 0 ? pointer<Real>(times_) : nullptr;
    v.carry = pointer<unsigned int>(carry_);
    v.points = pointer<Real>(points_);
    v.point_columns = shape_.point_columns;
    v.point_rows = shape_.point_rows;
    v.scalars = pointer<Real>(scalars_);
    v.status = pointer<int>(status_);
    v.rows_filled = pointer<int>(rows_filled_);
    return v;
}

template ensemble::View<float> EnsembleBatch::view<float>() const;
template ensemble::View<double> EnsembleBatch::view<double>() const;

} // namespace bif::cuda
