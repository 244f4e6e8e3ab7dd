#include "engine/cuda/render_kernels.h"

#include "bif/render/map_summary.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <stdexcept>

namespace bif::cuda {

namespace {

constexpr unsigned block_size = 256;
// Enough resident blocks to fill every multiprocessor; the kernels' grid-stride loops do the rest.
constexpr std::size_t blocks_per_multiprocessor = 8;

} // namespace

RenderKernels::RenderKernels(const Context& context) : RenderKernels(context, ModuleCompiler()) {}

RenderKernels::RenderKernels(const Context& context, const ModuleCompiler& compiler)
    : RenderKernels(context, compiler.compile(request(), compiler.target_for(context.device()))) {}

RenderKernels::RenderKernels(const Context& context, const CompiledModule& compiled)
    : module_(context, compiled), accumulate_f64_(module_.kernel("bif_density_accumulate_f64")),
      accumulate_f32_(module_.kernel("bif_density_accumulate_f32")),
      most_(module_.kernel("bif_density_most")), map_f64_(module_.kernel("bif_map_cells_f64")),
      map_f32_(module_.kernel("bif_map_cells_f32")), map_statuses_(module_.kernel("bif_map_status_cells")),
      scatter_f64_(module_.kernel("bif_map_scatter_f64")),
      scatter_f32_(module_.kernel("bif_map_scatter_f32")), summary_(module_.kernel("bif_map_summary")),
      points_f64_(module_.kernel("bif_points_scatter_f64")),
      points_f32_(module_.kernel("bif_points_scatter_f32")),
      points_range_(module_.kernel("bif_points_range")),
      multiprocessors_(std::max(1, context.device().multiprocessors)), from_cache_(compiled.from_cache()) {}

CompileRequest RenderKernels::request() {
    CompileRequest request;
    request.parts.push_back({"render", "#include \"bif/render/render_kernels.cuh\"\n"});
    // A contracted multiply-add would round a point's pixel coordinate differently from the host.
    request.extra_options = {"--fmad=false"};
    return request;
}

LaunchShape RenderKernels::shape_for(std::size_t count) const {
    const std::size_t most_blocks = blocks_per_multiprocessor * static_cast<std::size_t>(multiprocessors_);
    const std::size_t needed = (count + block_size - 1) / block_size;
    return LaunchShape::linear(std::clamp<std::size_t>(needed, 1, most_blocks) * block_size, block_size);
}

void RenderKernels::accumulate_density(const DevicePoints& points, const bif::render::DensityBinning& binning,
                                       driver::CUdeviceptr counts, const Stream& stream) const {
    if (points.count == 0) return;
    const unsigned long long count = points.count;
    const Kernel& kernel = points.type == ColumnType::Float64 ? accumulate_f64_ : accumulate_f32_;
    kernel.launch(shape_for(points.count), stream, points.x, points.y, count, binning, counts);
}

void RenderKernels::most_count(driver::CUdeviceptr counts, std::size_t cells, driver::CUdeviceptr most,
                               const Stream& stream) const {
    const DriverLibrary& driver = context().driver();
    context().make_current();
    BIF_CU_CALL(driver, cuMemsetD8Async, most, 0, sizeof(unsigned), stream.handle());
    if (cells == 0) return;
    const unsigned long long count = cells;
    most_.launch(shape_for(cells), stream, counts, count, most);
}

void RenderKernels::bin_density(const DevicePoints& points, const bif::render::DensityBinning& binning,
                                driver::CUdeviceptr counts, driver::CUdeviceptr most,
                                const Stream& stream) const {
    const std::size_t cells =
        static_cast<std::size_t>(std::max(binning.width, 0)) * std::max(binning.height, 0);
    const DriverLibrary& driver = context().driver();
    context().make_current();
    BIF_CU_CALL(driver, cuMemsetD8Async, counts, 0, cells * sizeof(unsigned), stream.handle());
    accumulate_density(points, binning, counts, stream);
    most_count(counts, cells, most, stream);
}

void RenderKernels::write_map_cells(const DeviceMapCells& cells, driver::CUdeviceptr out_values,
                                    driver::CUdeviceptr out_statuses, const Stream& stream) const {
    if (cells.count == 0) return;
    const unsigned long long count = cells.count;
    const Kernel& kernel = cells.type == ColumnType::Float64 ? map_f64_ : map_f32_;
    kernel.launch(shape_for(cells.count), stream, cells.values, cells.statuses, count, out_values,
                  out_statuses);
}

void RenderKernels::write_status_cells(const DeviceMapCells& cells, driver::CUdeviceptr out_values,
                                       driver::CUdeviceptr out_statuses, const Stream& stream) const {
    if (cells.count == 0) return;
    const unsigned long long count = cells.count;
    map_statuses_.launch(shape_for(cells.count), stream, cells.statuses, count, out_values, out_statuses);
}

} // namespace bif::cuda

namespace bif::cuda {

void RenderKernels::scatter_map_cells(const DeviceBatchColumn& column, driver::CUdeviceptr out_values,
                                      driver::CUdeviceptr out_statuses, const Stream& stream) const {
    if (column.count == 0) return;
    const unsigned long long count = column.count;
    const Kernel& kernel = column.type == ColumnType::Float64 ? scatter_f64_ : scatter_f32_;
    kernel.launch(shape_for(column.count), stream, column.values, column.statuses, count, out_values,
                  out_statuses);
}

void RenderKernels::summarise_map(const DeviceMapCells& cells, driver::CUdeviceptr summary,
                                  const Stream& stream) const {
    if (cells.type != ColumnType::Float32) throw std::invalid_argument("a map summary reads float cells");
    const bif::render::MapSummary empty;
    const DriverLibrary& driver = context().driver();
    context().make_current();
    BIF_CU_CALL(driver, cuMemcpyHtoDAsync_v2, summary, &empty, sizeof empty, stream.handle());
    if (cells.count == 0) return;
    const unsigned long long count = cells.count;
    summary_.launch(shape_for(cells.count), stream, cells.values, cells.statuses, count, summary);
}

} // namespace bif::cuda

namespace bif::cuda {

void RenderKernels::scatter_points(const DeviceBatchPoints& batch, int column, driver::CUdeviceptr axis,
                                   driver::CUdeviceptr out_x, driver::CUdeviceptr out_y,
                                   driver::CUdeviceptr out_rows, const Stream& stream) const {
    if (batch.count == 0 || batch.rows <= 0) return;
    if (column < 0 || column >= batch.columns) throw std::invalid_argument("no such point column");
    const unsigned long long count = batch.count;
    const Kernel& kernel = batch.type == ColumnType::Float64 ? points_f64_ : points_f32_;
    kernel.launch(shape_for(batch.count * std::size_t(batch.rows)), stream, axis, batch.points,
                  batch.rows_filled, count, batch.rows, batch.columns, column, out_x, out_y, out_rows);
}

void RenderKernels::points_range(driver::CUdeviceptr values, std::size_t count, driver::CUdeviceptr keys,
                                 const Stream& stream) const {
    const unsigned long long reset[2] = {~0ull, 0ull};
    const DriverLibrary& driver = context().driver();
    context().make_current();
    BIF_CU_CALL(driver, cuMemcpyHtoDAsync_v2, keys, reset, sizeof reset, stream.handle());
    if (count == 0) return;
    const unsigned long long n = count;
    points_range_.launch(shape_for(count), stream, values, n, keys);
}

} // namespace bif::cuda
