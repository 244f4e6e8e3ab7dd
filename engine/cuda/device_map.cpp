#include "engine/cuda/device_map.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace bif::cuda {

DeviceMap::DeviceMap(const Context& context, std::size_t width, std::size_t height)
    : context_(context), width_(width), height_(height),
      values_(context, std::max<std::size_t>(1, width * height)),
      statuses_(context, std::max<std::size_t>(1, width * height)), summary_(context, 1) {
    clear();
}

DeviceMapCells DeviceMap::cells() const {
    DeviceMapCells cells;
    cells.values = reinterpret_cast<std::uintptr_t>(values_.device_pointer());
    cells.statuses = reinterpret_cast<std::uintptr_t>(statuses_.device_pointer());
    cells.count = count();
    cells.type = ColumnType::Float32;
    return cells;
}

void DeviceMap::clear() {
    const Stream stream(context_);
    context_.make_current();
    const DriverLibrary& driver = context_.driver();
    // every byte 0xff: a NaN float, and the status byte of no system
    BIF_CU_CALL(driver, cuMemsetD8Async, cells().values, 0xff, values_.bytes(), stream.handle());
    BIF_CU_CALL(driver, cuMemsetD8Async, cells().statuses, bif::render::no_status_cell, statuses_.bytes(),
                stream.handle());
    stream.synchronize();
}

void DeviceMap::download(std::vector<float>& values, std::vector<std::uint8_t>& statuses) const {
    values.resize(count());
    statuses.resize(count());
    values_.download(values);
    statuses_.download(statuses);
}

void DeviceMap::download(std::size_t first, std::size_t cells, float* values, std::uint8_t* statuses) const {
    if (first > count() || cells > count() - first)
        throw std::out_of_range("cells " + std::to_string(first) + " + " + std::to_string(cells) +
                                " of a map of " + std::to_string(count()));
    if (cells == 0) return;
    context_.make_current();
    const DriverLibrary& driver = context_.driver();
    const DeviceMapCells all = this->cells();
    BIF_CU_CALL(driver, cuMemcpyDtoH_v2, values, all.values + first * sizeof(float), cells * sizeof(float));
    BIF_CU_CALL(driver, cuMemcpyDtoH_v2, statuses, all.statuses + first, cells);
}

bif::render::MapSummary DeviceMap::summary(const RenderKernels& kernels) const {
    const Stream stream(context_);
    kernels.summarise_map(cells(), reinterpret_cast<std::uintptr_t>(summary_.device_pointer()), stream);
    stream.synchronize();
    return summary_.to_vector().front();
}

DeviceKeptMap::DeviceKeptMap(const Context& context, std::size_t width, std::size_t height,
                             std::vector<std::string> columns, std::shared_ptr<const RenderKernels> kernels)
    : context_(context), width_(width), height_(height), columns_(std::move(columns)),
      kernels_(std::move(kernels)) {
    for (std::size_t c = 0; c < std::max<std::size_t>(1, columns_.size()); ++c)
        maps_.push_back(std::make_unique<DeviceMap>(context_, width_, height_));
}

std::string DeviceKeptMap::where() const {
    return context_.device().name + " (GPU " + std::to_string(device()) + ")";
}

std::pair<float, study::SystemStatus> DeviceKeptMap::cell(std::size_t column, std::size_t index) const {
    float value = 0.0f;
    std::uint8_t status = 0;
    map(column).download(index, 1, &value, &status);
    return {value, status == bif::render::no_status_cell ? study::SystemStatus::NotRun
                                                         : static_cast<study::SystemStatus>(status)};
}

void DeviceKeptMap::sample(std::size_t column, std::size_t step, std::vector<float>& values,
                           std::vector<std::uint8_t>& statuses) const {
    step = std::max<std::size_t>(step, 1);
    const std::size_t columns = (width_ + step - 1) / step, rows = (height_ + step - 1) / step;
    values.resize(columns * rows);
    statuses.resize(columns * rows);
    // a row's cells come up whole and are thinned here: one copy per sampled row
    std::vector<float> row_values(width_);
    std::vector<std::uint8_t> row_statuses(width_);
    for (std::size_t r = 0; r < rows; ++r) {
        map(column).download(r * step * width_, width_, row_values.data(), row_statuses.data());
        for (std::size_t c = 0; c < columns; ++c) {
            values[r * columns + c] = row_values[c * step];
            statuses[r * columns + c] = row_statuses[c * step];
        }
    }
}

void DeviceKeptMap::download(std::size_t column, std::vector<float>& values,
                             std::vector<std::uint8_t>& statuses) const {
    map(column).download(values, statuses);
}

bif::render::MapSummary DeviceKeptMap::summary(std::size_t column) const {
    return map(column).summary(*kernels_);
}

} // namespace bif::cuda
