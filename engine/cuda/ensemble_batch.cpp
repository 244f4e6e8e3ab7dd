#include "engine/cuda/ensemble_batch.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/stream.h"
#include "engine/study/system_columns.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace bif::cuda {

BatchShape batch_shape(const ensemble::SpecStorage& spec, int carry_words, int real_bytes) {
    BatchShape shape;
    shape.axes = spec.spec().axis_count;
    shape.carry_words = carry_words;
    shape.point_rows = spec.point_rows();
    shape.point_columns = spec.point_columns();
    shape.scalar_columns = spec.scalar_columns();
    shape.states = spec.states();
    shape.output_times = int(spec.times().size());
    shape.real_bytes = real_bytes;
    return shape;
}

namespace {

std::size_t at_least_one(std::size_t bytes) {
    return std::max<std::size_t>(bytes, 16);
}

PinnedPool::Allocate pinned_in(const Context& context) {
    return [context](std::size_t bytes) { return PinnedBuffer(context, bytes); };
}

// Every byte 0xFF: a NaN in float and in double alike (the study's "missing value").
void fill_nan_async(const DeviceAllocation& a, std::size_t bytes, const Stream& stream) {
    if (bytes == 0) return;
    const Context& context = a.context();
    context.make_current();
    BIF_CU_CALL(context.driver(), cuMemsetD8Async, a.address(), 0xFF, bytes, stream.handle());
}

// The study's doubles in the device's precision, into `out` (values.size() * real_bytes bytes).
void convert_out(const std::vector<double>& values, int real_bytes, unsigned char* out) {
    // a few hundred megabytes for a 2^23-system batch (issue 36): on every hardware thread
    study::for_each_piece(values.size(), [&](std::size_t begin, std::size_t end) {
        if (real_bytes == 4) {
            float* f = reinterpret_cast<float*>(out);
            for (std::size_t i = begin; i < end; ++i)
                f[i] = static_cast<float>(values[i]);
        } else if (end > begin) {
            std::memcpy(out + begin * sizeof(double), values.data() + begin, (end - begin) * sizeof(double));
        }
    });
}

void convert_in(const unsigned char* in, int real_bytes, std::vector<double>& values) {
    study::for_each_piece(values.size(), [&](std::size_t begin, std::size_t end) {
        if (real_bytes == 4) {
            const float* f = reinterpret_cast<const float*>(in);
            for (std::size_t i = begin; i < end; ++i)
                values[i] = static_cast<double>(f[i]);
        } else if (end > begin) {
            std::memcpy(values.data() + begin, in + begin * sizeof(double), (end - begin) * sizeof(double));
        }
    });
}

// Systems whose swept values upload() computes at once into a buffer of its own before they go to
// the staging in floats: one piece of for_each_piece never splits further.
constexpr std::size_t axis_chunk_systems = std::size_t(1) << 16;

std::size_t point_reals(const BatchShape& s) {
    return std::size_t(s.point_rows) * std::size_t(s.point_columns);
}

// Per system, of what comes back to the host.
std::size_t downloaded_point_reals(const BatchShape& s) {
    return s.downloaded.points ? point_reals(s) : 0;
}
std::size_t downloaded_scalars(const BatchShape& s) {
    return s.downloaded.scalars ? std::size_t(s.scalar_columns) : 0;
}
std::size_t downloaded_rows_filled(const BatchShape& s) {
    return s.downloaded.points ? 1 : 0;
}
std::size_t downloaded_status(const BatchShape& s) {
    return s.downloaded.status ? 1 : 0;
}

// Per system: an initial and a final state for chains, nothing otherwise.
std::size_t chain_reals(const BatchShape& s) {
    return s.chains ? std::size_t(s.states) : 0;
}

} // namespace

std::size_t BatchShape::bytes_per_system() const {
    const std::size_t reals =
        std::size_t(axes) + point_reals(*this) + std::size_t(scalar_columns) + 2 * chain_reals(*this);
    return reals * std::size_t(real_bytes) + 4 * std::size_t(carry_words) + 2 * sizeof(int);
}

std::size_t BatchShape::staging_bytes_per_system() const {
    const std::size_t reals =
        std::size_t(axes) + downloaded_point_reals(*this) + downloaded_scalars(*this) + chain_reals(*this);
    return reals * std::size_t(real_bytes) +
           (downloaded_status(*this) + downloaded_rows_filled(*this)) * sizeof(int);
}

EnsembleBatch::EnsembleBatch(const Context& context, const BatchShape& shape,
                             const std::vector<double>& times, std::shared_ptr<PinnedPool> staging)
    : shape_(shape),
      axis_values_(context, at_least_one(std::size_t(shape.axes) * shape.capacity * shape.real_bytes)),
      times_(context, at_least_one(times.size() * shape.real_bytes)),
      carry_(context, at_least_one(std::size_t(shape.carry_words) * shape.capacity * 4)),
      points_(context, at_least_one(point_reals(shape) * shape.capacity * shape.real_bytes)),
      scalars_(context, at_least_one(std::size_t(shape.scalar_columns) * shape.capacity * shape.real_bytes)),
      status_(context, at_least_one(shape.capacity * sizeof(int))),
      rows_filled_(context, at_least_one(shape.capacity * sizeof(int))),
      initial_override_(context, at_least_one(chain_reals(shape) * shape.capacity * shape.real_bytes)),
      final_state_(context, at_least_one(chain_reals(shape) * shape.capacity * shape.real_bytes)),
      staging_(staging ? std::move(staging) : PinnedPool::make(0)),
      inputs_(staging_->take(at_least_one(std::size_t(shape.axes) * shape.capacity * shape.real_bytes),
                             pinned_in(context))),
      chain_states_(staging_->take(at_least_one(chain_reals(shape) * shape.capacity * shape.real_bytes),
                                   pinned_in(context))) {
    if (times.empty()) return;
    std::vector<unsigned char> staged(times.size() * std::size_t(shape.real_bytes));
    convert_out(times, shape.real_bytes, staged.data());
    times_.upload(staged.data(), staged.size());
}

std::size_t EnsembleBatch::scalars_offset() const {
    return downloaded_point_reals(shape_) * shape_.capacity * std::size_t(shape_.real_bytes);
}

std::size_t EnsembleBatch::status_offset() const {
    return scalars_offset() + downloaded_scalars(shape_) * shape_.capacity * shape_.real_bytes;
}

std::size_t EnsembleBatch::rows_filled_offset() const {
    return status_offset() + downloaded_status(shape_) * shape_.capacity * sizeof(int);
}

void EnsembleBatch::upload(const ensemble::BatchArrays& host, const Stream& stream) {
    if (host.count > shape_.capacity || host.axis_values.size() > std::size_t(shape_.axes) * host.count)
        throw std::length_error("a batch of " + std::to_string(host.count) + " systems in room for " +
                                std::to_string(shape_.capacity));
    convert_out(host.axis_values, shape_.real_bytes, inputs_.data());
    start(host, host.axis_values.size(), stream);
}

void EnsembleBatch::upload(const ensemble::BatchArrays& host, const study::ResolvedStudy& study,
                           const Stream& stream) {
    if (host.count > shape_.capacity)
        throw std::length_error("a batch of " + std::to_string(host.count) + " systems in room for " +
                                std::to_string(shape_.capacity));
    const std::size_t n = host.count;
    for (std::size_t a = 0; a < std::size_t(shape_.axes); ++a) {
        if (shape_.real_bytes == 8) {
            study::fill_axis_values(study, a, host.first, n,
                                    reinterpret_cast<double*>(inputs_.data()) + a * n);
            continue;
        }
        // floats: each thread through a small buffer of doubles, instead of the whole axis in fresh
        // memory (its page faults) and one thread converting it
        float* out = reinterpret_cast<float*>(inputs_.data()) + a * n;
        study::for_each_piece(n, [&](std::size_t begin, std::size_t end) {
            std::vector<double> chunk(std::min(axis_chunk_systems, end - begin));
            for (std::size_t from = begin; from < end; from += chunk.size()) {
                const std::size_t count = std::min(chunk.size(), end - from);
                study::fill_axis_values(study, a, host.first + from, count, chunk.data());
                for (std::size_t i = 0; i < count; ++i)
                    out[from + i] = static_cast<float>(chunk[i]);
            }
        });
    }
    start(host, std::size_t(shape_.axes) * n, stream);
}

void EnsembleBatch::start(const ensemble::BatchArrays& host, std::size_t axis_reals, const Stream& stream) {
    count_ = host.count;
    const std::size_t rb = std::size_t(shape_.real_bytes);
    axis_values_.upload_async(inputs_.data(), axis_reals * rb, stream);
    const Context& context = carry_.context();
    context.make_current();
    const auto& api = context.driver();
    BIF_CU_CALL(api, cuMemsetD8Async, carry_.address(), 0, std::size_t(shape_.carry_words) * count_ * 4,
                stream.handle());
    BIF_CU_CALL(api, cuMemsetD8Async, status_.address(), 0, count_ * sizeof(int), stream.handle());
    BIF_CU_CALL(api, cuMemsetD8Async, rows_filled_.address(), 0, count_ * sizeof(int), stream.handle());
    fill_nan_async(points_, point_reals(shape_) * count_ * rb, stream);
    fill_nan_async(scalars_, std::size_t(shape_.scalar_columns) * count_ * rb, stream);
    if (!shape_.chains) return;
    const std::size_t chain_bytes = chain_reals(shape_) * count_ * rb;
    if (host.initial_override.size() * rb != chain_bytes)
        throw std::length_error("a chain batch needs an initial state for each of its systems");
    convert_out(host.initial_override, shape_.real_bytes, chain_states_.data());
    initial_override_.upload_async(chain_states_.data(), chain_bytes, stream);
    fill_nan_async(final_state_, chain_bytes, stream);
}

void EnsembleBatch::prepare_downloads() {
    if (outputs_.size() != 0) return;
    outputs_ = staging_->take(
        at_least_one(rows_filled_offset() + downloaded_rows_filled(shape_) * shape_.capacity * sizeof(int)),
        pinned_in(carry_.context()));
}

void EnsembleBatch::download(ensemble::BatchArrays& host, const Stream& stream) {
    fetch(stream);
    unpack(host);
}

void EnsembleBatch::fetch(const Stream& stream) {
    const std::size_t rb = std::size_t(shape_.real_bytes);
    prepare_downloads();
    unsigned char* out = outputs_.data();
    // all copies queued, then one wait: they follow each other on the copy engine
    points_.download_async(out, downloaded_point_reals(shape_) * count_ * rb, stream);
    scalars_.download_async(out + scalars_offset(), downloaded_scalars(shape_) * count_ * rb, stream);
    status_.download_async(out + status_offset(), downloaded_status(shape_) * count_ * sizeof(int), stream);
    rows_filled_.download_async(out + rows_filled_offset(),
                                downloaded_rows_filled(shape_) * count_ * sizeof(int), stream);
    // the upload's copy from chain_states_ ran before this batch's kernels, so it is free again
    if (shape_.chains)
        final_state_.download_async(chain_states_.data(), chain_reals(shape_) * count_ * rb, stream);
    stream.synchronize();
    fetched_count_ = count_;
}

void EnsembleBatch::unpack(ensemble::BatchArrays& host) {
    const std::size_t n = fetched_count_;
    if (host.count != n)
        throw std::length_error("a host batch of " + std::to_string(host.count) + " systems for " +
                                std::to_string(n) + " fetched");
    ensemble::size_outputs(host, shape_.downloaded);
    if (host.points.size() > downloaded_point_reals(shape_) * n ||
        host.scalars.size() > downloaded_scalars(shape_) * n ||
        host.rows_filled.size() > downloaded_rows_filled(shape_) * n ||
        host.status.size() > downloaded_status(shape_) * n ||
        host.final_state.size() > chain_reals(shape_) * n)
        throw std::length_error("a host batch with outputs its device batch does not download");
    const unsigned char* out = outputs_.data();
    if (shape_.chains) convert_in(chain_states_.data(), shape_.real_bytes, host.final_state);
    convert_in(out, shape_.real_bytes, host.points);
    convert_in(out + scalars_offset(), shape_.real_bytes, host.scalars);
    if (!host.status.empty())
        std::memcpy(host.status.data(), out + status_offset(), host.status.size() * sizeof(int));
    if (!host.rows_filled.empty())
        std::memcpy(host.rows_filled.data(), out + rows_filled_offset(),
                    host.rows_filled.size() * sizeof(int));
}

driver::CUdeviceptr EnsembleBatch::scalar_column_address(int column) const {
    if (column < 0 || column >= shape_.scalar_columns)
        throw std::out_of_range("scalar column " + std::to_string(column) + " of " +
                                std::to_string(shape_.scalar_columns));
    return scalars_.address() + std::size_t(column) * count_ * std::size_t(shape_.real_bytes);
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
    v.initial_override = shape_.chains ? pointer<Real>(initial_override_) : nullptr;
    v.final_state = shape_.chains ? pointer<Real>(final_state_) : nullptr;
    return v;
}

template ensemble::View<float> EnsembleBatch::view<float>() const;
template ensemble::View<double> EnsembleBatch::view<double>() const;

} // namespace bif::cuda
