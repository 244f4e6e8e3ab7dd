// The CUDA path of ui/render (issue 11): results in GPU memory are binned or converted by the render
// kernels straight into the layers' GL buffers, which are registered with CUDA and mapped around
// each launch, so nothing goes through host memory on the way to the screen. The host path is the
// layers' own setCounts()/setCells().
//
//   RenderPathChoice choice = choose_render_path();     // GL context current
//   if (choice.cuda) path.emplace(choice.device);
//   path->setPoints(x, y);                              // once per data: columns to the device
//   layer.resize(gl, pixels);
//   path->binInto(layer, binning);                      // each zoom or pan: a GPU rebin
//
// Every call needs the GL context that owns the layers current. Errors are bif::cuda exceptions
// (CudaUnavailable, CudaError, CompileError); callers fall back to the host path on any of them.
#pragma once

#include "bif/render/binning.h"
#include "engine/cuda/context.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/gl_interop.h"
#include "engine/cuda/render_kernels.h"
#include "engine/cuda/stream.h"
#include "engine/study/kept_map.h"
#include "engine/study/kept_points.h"
#include "ui/plot/plot_range.h"
#include "ui/render/density_layer.h"
#include "ui/render/map_layer.h"

#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace bif::plot {
class ResultFigure;
}

namespace bif::cuda {
class DeviceKeptMap;
class DeviceKeptPoints;
} // namespace bif::cuda

namespace bif::render {

// Which path results take to the GL buffers, and why (one line for the status bar).
struct RenderPathChoice {
    bool cuda = false;
    int device = -1;     // the CUDA ordinal of the GL context's GPU, on the CUDA path
    QString description; // "CUDA on NVIDIA H100 80GB HBM3", or "host upload: <why not CUDA>"
};

// The CUDA path when the current GL context runs on a CUDA device whose driver has GL interop;
// else the host path with the reason. Set BIFSCOPE_RENDER_PATH=host to choose the host path anyway.
RenderPathChoice choose_render_path();

class CudaRenderPath {
  public:
    // On CUDA device `device` (RenderPathChoice::device): compiles or loads the render kernels.
    explicit CudaRenderPath(int device);
    ~CudaRenderPath();
    CudaRenderPath(const CudaRenderPath&) = delete;
    CudaRenderPath& operator=(const CudaRenderPath&) = delete;

    // Section points kept on the device for every later binInto(): copied once from the host.
    void setPoints(std::span<const double> x, std::span<const double> y);
    // Points that are on the device already (not owned: they must outlive their use here).
    void setDevicePoints(const cuda::DevicePoints& points);
    std::size_t pointCount() const { return points_.count; }

    // The points binned into the layer's counts (the layer sized binning.width x binning.height
    // first), and the layer's maximum set. Waits for the maximum (4 bytes) to come back.
    void binInto(DensityLayer& layer, const DensityBinning& binning);
    // A map's cells (host values and status bytes, width*height of them in the layer's order)
    // copied once to the device and converted into the layer's buffers (sized first).
    void setMapCells(MapLayer& layer, std::span<const double> values, std::span<const std::uint8_t> statuses);
    // Cells on the device already.
    void writeMap(MapLayer& layer, const cuda::DeviceMapCells& cells);
    // Column `column` of a map kept on this path's GPU (a job's kept result, engine/cuda/device_map.h),
    // into the layer (sized to the map first). std::invalid_argument when it is kept elsewhere.
    void writeKept(Gl& gl, MapLayer& layer, const study::KeptMap& kept, std::size_t column);
    // The status view of a kept map: each cell's status as its value too.
    void writeKeptStatuses(Gl& gl, MapLayer& layer, const study::KeptMap& kept);

    // Unregisters the GL buffers; call while the GL context is current, before the layers release theirs.
    void release();
    const cuda::Context& context() const { return context_; }
    const cuda::Stream& stream() const { return stream_; }
    // The render kernels, for runs that keep their results on this device (engine/cuda/device_map.h).
    const cuda::RenderKernels& kernels() const { return kernels_; }

  private:
    // A layer buffer's registration, redone when the buffer's storage changes (CellBuffer::storage).
    struct Registered {
        std::uint64_t storage = 0;
        std::optional<cuda::GlBufferRegistration> registration;
    };
    const cuda::GlBufferRegistration& registered(Registered& slot, const CellBuffer& cells);

    cuda::Context context_;
    cuda::Stream stream_;
    cuda::RenderKernels kernels_;
    cuda::DeviceBuffer<std::uint32_t> most_;
    std::unique_ptr<cuda::DeviceBuffer<double>> x_, y_; // owned points, when set from the host
    cuda::DevicePoints points_;
    std::unique_ptr<cuda::DeviceBuffer<double>> map_values_;
    std::unique_ptr<cuda::DeviceBuffer<std::uint8_t>> map_statuses_;
    Registered counts_, values_, statuses_;
};

// A figure canvas's CUDA path for diagrams: the figure's points go to the GPU once per change of
// its data (points kept on this GPU, study::KeptPoints, are used where they are), and every new view
// (zoom, pan, resize) is a GPU rebin into the density layer at the canvas's own pixels, without
// waiting for the figure's host rebin.
class CudaFigureDensity {
  public:
    explicit CudaFigureDensity(int device) : path_(device) {}

    // Brings `layer` up to date with `figure` shown at `view` over `pixels`; the layer is then drawn
    // with extent = view. GL context current; throws as CudaRenderPath does.
    void update(Gl& gl, DensityLayer& layer, const plot::ResultFigure& figure, const plot::PlotRange& view,
                QSize pixels);
    void release() { path_.release(); }
    // Whether this path draws the figure: not when its points are kept on another device.
    bool draws(const plot::ResultFigure& figure) const;
    // The path itself, for maps kept on its GPU.
    CudaRenderPath& path() { return path_; }

  private:
    CudaRenderPath path_;
    std::shared_ptr<const study::KeptPoints> kept_; // the points binned, while they are the figure's
    const plot::ResultFigure* figure_ = nullptr;
    std::uint64_t data_revision_ = 0, revision_ = 0;
    plot::PlotRange view_;
    QSize pixels_;
    std::vector<double> x_, y_; // gathered on the host once per data change, then kept on the device
};

} // namespace bif::render
