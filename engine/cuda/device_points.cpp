#include "engine/cuda/device_points.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace bif::cuda {

namespace {

driver::CUdeviceptr address_of(const auto& buffer) {
    return reinterpret_cast<std::uintptr_t>(buffer.device_pointer());
}

// The inverse of bif_points_range's order key.
double from_order_key(unsigned long long key) {
    const unsigned long long bits = (key >> 63) ? key & ~0x8000000000000000ull : ~key;
    return std::bit_cast<double>(bits);
}

// Every byte 0xff: NaN doubles, the rows no batch filled yet.
void fill_ones(const Context& context, driver::CUdeviceptr where, std::size_t bytes, const Stream& stream) {
    BIF_CU_CALL(context.driver(), cuMemsetD8Async, where, 0xff, bytes, stream.handle());
}

} // namespace

DeviceKeptPoints::DeviceKeptPoints(const Context& context, std::span<const double> axis_values,
                                   std::size_t rows, std::vector<std::string> columns,
                                   std::shared_ptr<const RenderKernels> kernels)
    : context_(context), systems_(axis_values.size()), rows_(rows), columns_(std::move(columns)),
      kernels_(std::move(kernels)), axis_(context, std::max<std::size_t>(1, systems_)),
      x_(context, std::max<std::size_t>(1, systems_ * rows_)),
      rows_filled_(context, std::max<std::size_t>(1, systems_)), most_(context, 1), keys_(context, 2) {
    axis_.upload(axis_values);
    for (std::size_t c = 0; c < columns_.size(); ++c)
        y_.push_back(
            std::make_unique<DeviceBuffer<double>>(context_, std::max<std::size_t>(1, systems_ * rows_)));
    const Stream stream(context_);
    context_.make_current();
    fill_ones(context_, address_of(x_), x_.bytes(), stream);
    for (const auto& y : y_)
        fill_ones(context_, address_of(*y), y->bytes(), stream);
    BIF_CU_CALL(context_.driver(), cuMemsetD8Async, address_of(rows_filled_), 0, rows_filled_.bytes(),
                stream.handle());
    stream.synchronize();
}

std::size_t DeviceKeptPoints::bytes_for(std::size_t systems, std::size_t rows, std::size_t columns) {
    return systems * rows * (columns + 1) * sizeof(double) + systems * (sizeof(double) + sizeof(int));
}

std::string DeviceKeptPoints::where() const {
    return context_.device().name + " (GPU " + std::to_string(device()) + ")";
}

DevicePoints DeviceKeptPoints::points(std::size_t column) const {
    DevicePoints points;
    points.x = address_of(x_);
    points.y = address_of(*y_.at(column));
    points.count = systems_ * rows_;
    points.type = ColumnType::Float64;
    return points;
}

void DeviceKeptPoints::scatter(const DeviceBatchPoints& batch, std::size_t first,
                               const Stream& stream) const {
    if (first > systems_ || batch.count > systems_ - first)
        throw std::out_of_range("a batch past the kept points' systems");
    if (std::size_t(batch.rows) != rows_ || std::size_t(batch.columns) != columns_.size())
        throw std::invalid_argument("a batch of another shape than the kept points");
    const std::size_t offset = first * rows_ * sizeof(double);
    for (std::size_t c = 0; c < columns_.size(); ++c)
        kernels_->scatter_points(batch, int(c), address_of(axis_) + first * sizeof(double),
                                 c == 0 ? address_of(x_) + offset : 0, address_of(*y_[c]) + offset,
                                 c == 0 ? address_of(rows_filled_) + first * sizeof(int) : 0, stream);
}

std::optional<std::pair<double, double>> DeviceKeptPoints::range(std::size_t column) const {
    std::lock_guard lock(mutex_);
    const Stream stream(context_);
    kernels_->points_range(address_of(*y_.at(column)), systems_ * rows_, address_of(keys_), stream);
    stream.synchronize();
    const std::vector<unsigned long long> keys = keys_.to_vector();
    if (keys[0] == ~0ull) return std::nullopt;
    return std::pair{from_order_key(keys[0]), from_order_key(keys[1])};
}

void DeviceKeptPoints::density(std::size_t column, const render::DensityBinning& binning,
                               std::vector<std::uint32_t>& counts) const {
    std::lock_guard lock(mutex_);
    const std::size_t cells =
        std::size_t(std::max(binning.width, 0)) * std::size_t(std::max(binning.height, 0));
    counts.assign(cells, 0);
    if (cells == 0) return;
    if (!counts_ || counts_->size() < cells)
        counts_ = std::make_unique<DeviceBuffer<std::uint32_t>>(context_, cells);
    const Stream stream(context_);
    kernels_->bin_density(points(column), binning, address_of(*counts_), address_of(most_), stream);
    stream.synchronize();
    counts_->download(std::span<std::uint32_t>(counts.data(), cells));
}

void DeviceKeptPoints::download(study::PointBlock& points) const {
    points.rows_per_system = rows_;
    std::vector<int> filled(systems_);
    rows_filled_.download(std::span<int>(filled.data(), systems_));
    points.rows_filled.assign(systems_, 0);
    for (std::size_t s = 0; s < systems_; ++s)
        points.rows_filled[s] = std::uint32_t(std::max(filled[s], 0));
    const std::size_t width = points.width();
    points.values.assign(systems_ * rows_ * width, study::missing_value);
    std::vector<double> y(systems_ * rows_);
    for (std::size_t c = 0; c < columns_.size() && c < width; ++c) {
        y_[c]->download(std::span<double>(y.data(), y.size()));
        for (std::size_t k = 0; k < y.size(); ++k)
            points.values[k * width + c] = y[k];
    }
}

} // namespace bif::cuda
