#include "engine/cuda/device_map.h"

#include "engine/cuda/driver_library.h"
#include "engine/cuda/stream.h"

#include <algorithm>

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

bif::render::MapSummary DeviceMap::summary(const RenderKernels& kernels) const {
    const Stream stream(context_);
    kernels.summarise_map(cells(), reinterpret_cast<std::uintptr_t>(summary_.device_pointer()), stream);
    stream.synchronize();
    return summary_.to_vector().front();
}

} // namespace bif::cuda
