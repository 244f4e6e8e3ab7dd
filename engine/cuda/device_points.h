// A bifurcation diagram whose section points stay on the GPU (issue 11): as each batch of systems
// finishes, a render kernel copies its recorded points into point columns in device memory (x: the
// system's swept value, y: one column per recorded quantity, as doubles; a system's rows at
// system * rows, those it did not fill NaN, so that binning skips them). Its axes, statuses and
// scalars come to the host as in any run; the points only for an export (download()).
//
//   DeviceKeptPoints kept(context, axis_values, rows, {"y1", "y2"}, kernels);
//   ... CudaBackend::run_kept fills it ...
//   render_path.setDevicePoints(kept.points(0));            // ui/render/cuda_render_path.h
//   kept.density(0, binning, counts);                       // a host picture of the same
//
// Device memory: 8 bytes a point for x and for each quantity, 4 a system; a 2^20-value diagram of
// 1024 rows and two quantities is 25 GB, so a backend refuses what does not fit (study::NotKept).
#pragma once

#include "engine/cuda/context.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/render_kernels.h"
#include "engine/study/kept_points.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace bif::cuda {

class Stream;

class DeviceKeptPoints : public study::KeptPoints {
  public:
    // Systems with these swept values, `rows` rows each, of the quantities `columns`; every row
    // unfilled. `kernels` are the render kernels of the context's GPU.
    DeviceKeptPoints(const Context& context, std::span<const double> axis_values, std::size_t rows,
                     std::vector<std::string> columns, std::shared_ptr<const RenderKernels> kernels);

    // Device bytes for such points (to check against the GPU's free memory first).
    static std::size_t bytes_for(std::size_t systems, std::size_t rows, std::size_t columns);

    std::size_t systems() const override { return systems_; }
    std::size_t rows() const override { return rows_; }
    const std::vector<std::string>& columns() const override { return columns_; }
    std::string where() const override;
    std::optional<std::pair<double, double>> range(std::size_t column) const override;
    void density(std::size_t column, const render::DensityBinning& binning,
                 std::vector<std::uint32_t>& counts) const override;
    void download(study::PointBlock& points) const override;

    int device() const { return context_.device().ordinal; }
    const Context& context() const { return context_; }
    // Quantity `column`'s points with their x, for RenderKernels::bin_density (CudaRenderPath).
    DevicePoints points(std::size_t column) const;
    // A finished batch's points (its systems from `first` on) into the columns; asynchronous on `stream`.
    void scatter(const DeviceBatchPoints& batch, std::size_t first, const Stream& stream) const;

  private:
    Context context_;
    std::size_t systems_, rows_;
    std::vector<std::string> columns_;
    std::shared_ptr<const RenderKernels> kernels_;
    DeviceBuffer<double> axis_, x_;
    std::vector<std::unique_ptr<DeviceBuffer<double>>> y_;
    DeviceBuffer<int> rows_filled_;
    // density() and range() from any thread, one at a time: their scratch is shared
    mutable std::mutex mutex_;
    mutable std::unique_ptr<DeviceBuffer<std::uint32_t>> counts_;
    mutable DeviceBuffer<std::uint32_t> most_;
    mutable DeviceBuffer<unsigned long long> keys_;
};

} // namespace bif::cuda
