// The render kernels (kernels/bif/render/render_kernels.cuh) on one GPU: compiled once by NVRTC,
// cached on disk like the model modules, and launched on device columns. They write into any device
// memory; the CUDA path of ui/render points them at mapped GL buffers (gl_interop.h).
//
//   RenderKernels kernels(context);                          // compiles, or loads from the cache
//   kernels.bin_density(points, binning, counts, most, stream); // histogram and its maximum
//   kernels.write_map_cells(cells, out_values, out_statuses, stream);
//   kernels.write_status_cells(cells, out_values, out_statuses, stream); // the status view
//
// Throws CudaUnavailable without NVRTC or the driver, CompileError/NvrtcError when the source does
// not compile, CudaError when a launch fails.
#pragma once

#include "bif/render/binning.h"
#include "engine/cuda/compile_request.h"
#include "engine/cuda/context.h"
#include "engine/cuda/module.h"

#include <cstddef>

namespace bif::cuda {

class ModuleCompiler;
class Stream;

// How the values of a device column are stored.
enum class ColumnType { Float64, Float32 };

// Section points in device memory: x[k], y[k] for k < count, both of `type`.
struct DevicePoints {
    driver::CUdeviceptr x = 0, y = 0;
    std::size_t count = 0;
    ColumnType type = ColumnType::Float64;
};

// One batch's results in device memory (engine/cuda/ensemble_batch.h's arrays): `count` values of
// one scalar column (0: none, a map coloured by status) and one int status per system.
struct DeviceBatchColumn {
    driver::CUdeviceptr values = 0, statuses = 0;
    std::size_t count = 0;
    ColumnType type = ColumnType::Float64;
};

// A map's cells in device memory: values[k] of `type` and one status byte (study::SystemStatus, or
// render's no_system) per cell, in the layer's order (row j at j * width).
struct DeviceMapCells {
    driver::CUdeviceptr values = 0, statuses = 0;
    std::size_t count = 0;
    ColumnType type = ColumnType::Float64;
};

// One diagram batch's section points in device memory (EnsembleBatch::view's points and rows filled):
// point (system i, row r, quantity c) at points[(r * columns + c) * count + i].
struct DeviceBatchPoints {
    driver::CUdeviceptr points = 0, rows_filled = 0;
    std::size_t count = 0;
    int rows = 0, columns = 0;
    ColumnType type = ColumnType::Float64;
};

class RenderKernels {
  public:
    // Compiles for the context's device with a default compiler (default cache) or the given one.
    explicit RenderKernels(const Context& context);
    RenderKernels(const Context& context, const ModuleCompiler& compiler);

    // What is compiled: the fixed source, without fused multiply-add so that binning rounds as on the host.
    static CompileRequest request();

    // Zeroes binning.width * binning.height uint32 counts at `counts`, adds every point to its pixel
    // (NaN and points outside skipped) and writes the largest count to the uint32 at `most`.
    // Asynchronous on `stream`.
    void bin_density(const DevicePoints& points, const bif::render::DensityBinning& binning,
                     driver::CUdeviceptr counts, driver::CUdeviceptr most, const Stream& stream) const;
    // Adds the points to the counts already there (no zeroing, no maximum).
    void accumulate_density(const DevicePoints& points, const bif::render::DensityBinning& binning,
                            driver::CUdeviceptr counts, const Stream& stream) const;
    // Zeroes `most`, then writes the largest of `cells` uint32 counts to it.
    void most_count(driver::CUdeviceptr counts, std::size_t cells, driver::CUdeviceptr most,
                    const Stream& stream) const;
    // cells.count floats and status bytes at `out_values` and `out_statuses`. Asynchronous on `stream`.
    void write_map_cells(const DeviceMapCells& cells, driver::CUdeviceptr out_values,
                         driver::CUdeviceptr out_statuses, const Stream& stream) const;
    // The same, each cell's value being its status (the status view of a map).
    void write_status_cells(const DeviceMapCells& cells, driver::CUdeviceptr out_values,
                            driver::CUdeviceptr out_statuses, const Stream& stream) const;

    // column.count cells at `out_values` (floats) and `out_statuses` (bytes): the column's values and
    // its statuses as study::SystemStatus bytes. Asynchronous on `stream`.
    void scatter_map_cells(const DeviceBatchColumn& column, driver::CUdeviceptr out_values,
                           driver::CUdeviceptr out_statuses, const Stream& stream) const;
    // Quantity `column` of the batch's points into doubles at out_y (system i's rows from
    // i * batch.rows, unfilled rows NaN); with out_x (not 0) its swept value (doubles at `axis`, one
    // per system) for every filled row, with out_rows (not 0) its rows filled. Asynchronous on `stream`.
    void scatter_points(const DeviceBatchPoints& batch, int column, driver::CUdeviceptr axis,
                        driver::CUdeviceptr out_x, driver::CUdeviceptr out_y, driver::CUdeviceptr out_rows,
                        const Stream& stream) const;
    // The order keys (bif_points_range) of the smallest and largest finite of `count` doubles into
    // the two uint64 at `keys`, which are reset first. Asynchronous on `stream`.
    void points_range(driver::CUdeviceptr values, std::size_t count, driver::CUdeviceptr keys,
                      const Stream& stream) const;

    // The MapSummary (bif/render/map_summary.h) of float cells into `summary` (device memory of
    // sizeof(MapSummary)), which is reset first. Asynchronous on `stream`.
    void summarise_map(const DeviceMapCells& cells, driver::CUdeviceptr summary, const Stream& stream) const;

    const Context& context() const { return module_.context(); }
    bool from_cache() const { return from_cache_; } // whether the module came from the disk cache

  private:
    RenderKernels(const Context& context, const CompiledModule& compiled);
    LaunchShape shape_for(std::size_t count) const;

    Module module_;
    Kernel accumulate_f64_, accumulate_f32_, most_, map_f64_, map_f32_, map_statuses_, scatter_f64_,
        scatter_f32_, summary_, points_f64_, points_f32_, points_range_;
    int multiprocessors_;
    bool from_cache_;
};

} // namespace bif::cuda
