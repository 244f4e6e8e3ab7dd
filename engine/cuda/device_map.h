// A map study whose results stay on the GPU (issue 11): as each batch of systems finishes, a render
// kernel writes one scalar column of it (period, lambda_max, an accessory, ...) and its statuses into
// the map's cells in device memory, in the layout ui/render/map_layer.h draws (a float and a status
// byte per cell, row j at j * width); the batch's outputs never cross the bus. Only the run's
// information and the cells' summary (the colour range, categories, statuses: 180 bytes) come back;
// the cells themselves only when the user exports them (download()).
//
//   DeviceMap map(context, nx, ny);                         // every cell "no system yet"
//   DeviceMapRun run = run_map_on_device(study, "period", map, kernels, control);
//   render_path.writeMap(layer, map.cells());               // ui/render/cuda_render_path.h
//   MapSummary summary = map.summary(kernels);              // for the colours
//
// Host memory stays at the batches' staging (the axis values going up), a few tens of megabytes
// whatever the map's size: a 10^8-cell map holds 500 MB on the GPU and none on the host.
#pragma once

#include "bif/render/map_summary.h"
#include "engine/cuda/cuda_backend.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/render_kernels.h"
#include "engine/study/backend.h"
#include "engine/study/kept_map.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bif::cuda {

class DeviceMap {
  public:
    // width * height cells on the context's GPU, values NaN and statuses no_status_cell.
    DeviceMap(const Context& context, std::size_t width, std::size_t height);

    std::size_t width() const { return width_; }
    std::size_t height() const { return height_; }
    std::size_t count() const { return width_ * height_; }
    const Context& context() const { return context_; }
    // The cells, for RenderKernels::write_map_cells (CudaRenderPath::writeMap).
    DeviceMapCells cells() const;

    // Every cell back to "no system yet".
    void clear();
    // The cells on the host, for an export.
    void download(std::vector<float>& values, std::vector<std::uint8_t>& statuses) const;
    // `count` consecutive cells from cell `first` into `values` and `statuses` (a row, one cell).
    void download(std::size_t first, std::size_t count, float* values, std::uint8_t* statuses) const;
    // Summarised on the GPU; waits for it.
    bif::render::MapSummary summary(const RenderKernels& kernels) const;

  private:
    Context context_;
    std::size_t width_, height_;
    DeviceBuffer<float> values_;
    DeviceBuffer<std::uint8_t> statuses_;
    DeviceBuffer<bif::render::MapSummary> summary_;
};

// The maps of a study's kept columns on one GPU, as the job API hands them out (study::KeptMap):
// CudaBackend::run_kept makes them, a view on the same GPU draws map(c).cells() through
// CudaRenderPath::writeMap. The statuses are kept with every column; with no column, one map holds them.
class DeviceKeptMap : public study::KeptMap {
  public:
    DeviceKeptMap(const Context& context, std::size_t width, std::size_t height,
                  std::vector<std::string> columns, std::shared_ptr<const RenderKernels> kernels);

    std::size_t width() const override { return width_; }
    std::size_t height() const override { return height_; }
    const std::vector<std::string>& columns() const override { return columns_; }
    std::string where() const override;
    std::pair<float, study::SystemStatus> cell(std::size_t column, std::size_t index) const override;
    void sample(std::size_t column, std::size_t step, std::vector<float>& values,
                std::vector<std::uint8_t>& statuses) const override;
    void download(std::size_t column, std::vector<float>& values,
                  std::vector<std::uint8_t>& statuses) const override;
    bif::render::MapSummary summary(std::size_t column) const override;

    int device() const { return context_.device().ordinal; }
    // Column c's cells (c = 0 when none was kept).
    DeviceMap& map(std::size_t column) { return *maps_.at(column); }
    const DeviceMap& map(std::size_t column) const { return *maps_.at(column); }

  private:
    Context context_;
    std::size_t width_, height_;
    std::vector<std::string> columns_;
    std::shared_ptr<const RenderKernels> kernels_;
    std::vector<std::unique_ptr<DeviceMap>> maps_;
};

struct DeviceMapRun {
    study::RunInfo info;
    double integration_seconds = 0.0; // the GPU's time in integration kernels (EnsembleRunner)
};

// Runs `study` on the map's GPU (its "gpus" choice aside) and keeps its result there: the Result's
// scalar column `column` (empty: none, the statuses alone) and every status go into the map's cells,
// system s into cell s. The study must be a sweep (no continuation) of map.count() systems, and the
// column one that the study's program computes (not a basin's label, which the host assigns); else
// BackendError says why. Cells of systems a cancel left unrun keep their earlier contents.
// `kernels` must be the render kernels of the map's context. Errors as CudaBackend::run.
DeviceMapRun run_map_on_device(const study::ResolvedStudy& study, std::string_view column, DeviceMap& map,
                               const RenderKernels& kernels, study::RunControl& control,
                               CudaBackendOptions options = {});

// The maps of one run, column by column (each map holds that column and every status).
struct KeptColumn {
    std::string column; // empty: the statuses alone
    DeviceMap* map = nullptr;
};
DeviceMapRun run_map_on_device(const study::ResolvedStudy& study, const std::vector<KeptColumn>& columns,
                               const RenderKernels& kernels, study::RunControl& control,
                               CudaBackendOptions options = {});

} // namespace bif::cuda
