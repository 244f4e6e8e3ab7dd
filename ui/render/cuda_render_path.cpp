#include "ui/render/cuda_render_path.h"

#include "engine/cuda/device_map.h"
#include "engine/cuda/device_points.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "ui/plot/result_figure.h"
#include "ui/render/plot_colours.h"

#include <stdexcept>

namespace bif::render {

namespace {

cuda::driver::CUdeviceptr address_of(const auto& buffer) {
    return reinterpret_cast<cuda::driver::CUdeviceptr>(buffer.device_pointer());
}

std::size_t cells_of(QSize size) {
    return static_cast<std::size_t>(std::max(size.width(), 0)) * std::max(size.height(), 0);
}

// A device buffer of exactly `count` values, reused while the count stays.
template <class T>
cuda::DeviceBuffer<T>& sized(std::unique_ptr<cuda::DeviceBuffer<T>>& buffer, const cuda::Context& context,
                             std::size_t count) {
    if (!buffer || buffer->size() != count) {
        buffer.reset();
        buffer = std::make_unique<cuda::DeviceBuffer<T>>(context, count);
    }
    return *buffer;
}

// A result kept on a device (study::KeptMap, KeptPoints) as the device object of `context`'s GPU;
// null when it is kept elsewhere.
template <class OnGpu, class Kept>
const OnGpu* kept_on(const Kept& kept, const cuda::Context& context) {
    const auto* on_gpu = dynamic_cast<const OnGpu*>(&kept);
    return on_gpu && on_gpu->device() == context.device().ordinal ? on_gpu : nullptr;
}

template <class OnGpu, class Kept>
const OnGpu& kept_here(const Kept& kept, const cuda::Context& context) {
    if (const OnGpu* on_gpu = kept_on<OnGpu>(kept, context)) return *on_gpu;
    throw std::invalid_argument("the result is kept in " + kept.where() + ", not on this GPU");
}

} // namespace

RenderPathChoice choose_render_path() {
    RenderPathChoice choice;
    const auto host = [&](const QString& why) {
        choice.description = QStringLiteral("host upload: ") + why;
        return choice;
    };
    if (qgetenv("BIFSCOPE_RENDER_PATH") == "host")
        return host(QStringLiteral("chosen by BIFSCOPE_RENDER_PATH"));
    const cuda::GlContextDevice where = cuda::gl_context_device();
    if (!where.found()) return host(QString::fromStdString(where.reason));
    const cuda::NvrtcLibrary& nvrtc = cuda::NvrtcLibrary::instance();
    if (!nvrtc.available()) return host(QString::fromStdString(nvrtc.unavailable_reason()));
    choice.cuda = true;
    choice.device = where.ordinal;
    try {
        choice.description =
            QStringLiteral("CUDA on ") + QString::fromStdString(cuda::Context(where.ordinal).device().name);
    } catch (const std::exception& e) {
        choice = {};
        return host(QString::fromStdString(e.what()));
    }
    return choice;
}

CudaRenderPath::CudaRenderPath(int device)
    : context_(device), stream_(context_), kernels_(context_), most_(context_, 1) {}

CudaRenderPath::~CudaRenderPath() {
    release();
}

void CudaRenderPath::release() {
    counts_ = {};
    values_ = {};
    statuses_ = {};
}

void CudaRenderPath::setPoints(std::span<const double> x, std::span<const double> y) {
    if (x.size() != y.size())
        throw std::invalid_argument("CudaRenderPath::setPoints: columns of unequal length");
    const std::size_t n = std::max<std::size_t>(x.size(), 1);
    sized(x_, context_, n).upload(x);
    sized(y_, context_, n).upload(y);
    points_ = {address_of(*x_), address_of(*y_), x.size(), cuda::ColumnType::Float64};
}

void CudaRenderPath::setDevicePoints(const cuda::DevicePoints& points) {
    x_.reset();
    y_.reset();
    points_ = points;
}

const cuda::GlBufferRegistration& CudaRenderPath::registered(Registered& slot, const CellBuffer& cells) {
    if (!slot.registration || slot.storage != cells.storage()) {
        slot.registration.reset();
        // Every mapping rewrites the cells in use, so the GL's earlier contents need not be kept.
        slot.registration.emplace(context_, cells.buffer(), true);
        slot.storage = cells.storage();
    }
    return *slot.registration;
}

void CudaRenderPath::binInto(DensityLayer& layer, const DensityBinning& binning) {
    if (cells_of(layer.size()) != cells_of(QSize(binning.width, binning.height)) ||
        cells_of(layer.size()) == 0)
        throw std::invalid_argument("CudaRenderPath::binInto: the layer is not sized as the binning");
    const cuda::GlBufferRegistration& counts = registered(counts_, layer.counts());
    {
        const cuda::MappedGlBuffers mapped({&counts}, stream_);
        kernels_.bin_density(points_, binning, mapped.pointer(0), address_of(most_), stream_);
    }
    std::uint32_t most = 0;
    most_.download_async(std::span<std::uint32_t>(&most, 1), stream_);
    stream_.synchronize();
    layer.setMostCount(most);
}

void CudaRenderPath::setMapCells(MapLayer& layer, std::span<const double> values,
                                 std::span<const std::uint8_t> statuses) {
    if (values.size() != statuses.size() || values.size() != cells_of(layer.size()))
        throw std::invalid_argument("CudaRenderPath::setMapCells: not one value and status per cell");
    sized(map_values_, context_, std::max<std::size_t>(values.size(), 1)).upload(values);
    sized(map_statuses_, context_, std::max<std::size_t>(statuses.size(), 1)).upload(statuses);
    writeMap(layer, {address_of(*map_values_), address_of(*map_statuses_), values.size(),
                     cuda::ColumnType::Float64});
}

void CudaRenderPath::writeMap(MapLayer& layer, const cuda::DeviceMapCells& cells) {
    if (cells.count > cells_of(layer.size()))
        throw std::invalid_argument("CudaRenderPath::writeMap: more cells than the layer holds");
    const cuda::GlBufferRegistration& values = registered(values_, layer.values());
    const cuda::GlBufferRegistration& statuses = registered(statuses_, layer.statuses());
    const cuda::MappedGlBuffers mapped({&values, &statuses}, stream_);
    kernels_.write_map_cells(cells, mapped.pointer(0), mapped.pointer(1), stream_);
}

void CudaRenderPath::writeKept(Gl& gl, MapLayer& layer, const study::KeptMap& kept, std::size_t column) {
    const auto& on_gpu = kept_here<cuda::DeviceKeptMap>(kept, context_);
    layer.resize(gl, QSize(static_cast<int>(kept.width()), static_cast<int>(kept.height())));
    writeMap(layer, on_gpu.map(column).cells());
}

void CudaRenderPath::writeKeptStatuses(Gl& gl, MapLayer& layer, const study::KeptMap& kept) {
    const auto& on_gpu = kept_here<cuda::DeviceKeptMap>(kept, context_);
    layer.resize(gl, QSize(static_cast<int>(kept.width()), static_cast<int>(kept.height())));
    const cuda::GlBufferRegistration& values = registered(values_, layer.values());
    const cuda::GlBufferRegistration& statuses = registered(statuses_, layer.statuses());
    const cuda::MappedGlBuffers mapped({&values, &statuses}, stream_);
    kernels_.write_status_cells(on_gpu.map(0).cells(), mapped.pointer(0), mapped.pointer(1), stream_);
}

bool CudaFigureDensity::draws(const plot::ResultFigure& figure) const {
    const auto kept = figure.keptPoints();
    return !kept || kept_on<cuda::DeviceKeptPoints>(*kept, path_.context());
}

void CudaFigureDensity::update(Gl& gl, DensityLayer& layer, const plot::ResultFigure& figure,
                               const plot::PlotRange& view, QSize pixels) {
    const bool new_data = figure_ != &figure || data_revision_ != figure.dataRevision();
    if (new_data) {
        kept_ = figure.keptPoints();
        if (kept_) {
            path_.setDevicePoints(kept_here<cuda::DeviceKeptPoints>(*kept_, path_.context())
                                      .points(static_cast<std::size_t>(figure.quantity())));
        } else {
            figure.pointColumns(x_, y_);
            path_.setPoints(x_, y_);
            x_ = {};
            y_ = {};
        }
    }
    if (new_data || revision_ != figure.revision()) {
        layer.setRamp(gl, ramp_of(figure.colorKey().ramp));
        layer.setScaling(figure.densityScale() == plot::DensityScale::Log ? DensityScaling::Log
                                                                          : DensityScaling::Linear);
    }
    if (new_data || !(view_ == view) || pixels_ != pixels) {
        layer.resize(gl, pixels);
        path_.binInto(layer, make_density_binning(view.x.from, view.x.to, view.x.log, view.y.from, view.y.to,
                                                  view.y.log, pixels.width(), pixels.height()));
    }
    figure_ = &figure;
    data_revision_ = figure.dataRevision();
    revision_ = figure.revision();
    view_ = view;
    pixels_ = pixels;
}

} // namespace bif::render
