// Times of ui/render's CUDA path (issue 11): 10^8 section points already on the GPU binned into a
// 2048x2048 density layer's GL buffer (mapped, zeroed, accumulated, maximum found and read back,
// unmapped), and a 3840x2160 map's GPU results written into a map layer's two GL buffers. Times
// with CUDA events on the path's stream after a warm-up, median of 7, and the wall time of the
// whole call (mapping and the maximum's read-back included). Needs a GL context on an NVIDIA GPU:
// run under xvfb-run -a with NVIDIA's GLX; elsewhere it says why and exits 77.
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/stream.h"
#include "gl_bench_support.h"
#include "ui/plot/color_map.h"
#include "ui/render/cuda_render_path.h"
#include "ui/render/plot_colours.h"
#include "ui/render/renderer.h"

#include <QGuiApplication>
#include <QOpenGLFramebufferObject>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

using namespace bif;

namespace {

struct Timing {
    float gpu_ms = 0;
    double wall_ms = 0;
};

// Median GPU and wall times of `runs` calls of f() after one warm-up call.
template <class F>
Timing median_of(const cuda::Stream& stream, int runs, F f) {
    f();
    std::vector<float> gpu;
    std::vector<double> wall;
    cuda::Event start(stream.context()), stop(stream.context());
    for (int i = 0; i < runs; ++i) {
        const auto begin = std::chrono::steady_clock::now();
        start.record(stream);
        f();
        stop.record(stream);
        gpu.push_back(cuda::Event::elapsed_milliseconds(start, stop));
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
    }
    std::sort(gpu.begin(), gpu.end());
    std::sort(wall.begin(), wall.end());
    return {gpu[gpu.size() / 2], wall[wall.size() / 2]};
}

// 10^8 points: uniform over the view, or the logistic map's attractor over r in [2.8, 4] (one r per
// column, so that the period-1 branch piles ~50000 points into each of its pixels).
void make_points(bool logistic, std::vector<double>& x, std::vector<double>& y) {
    const std::size_t n = 100'000'000, columns = 2048;
    x.resize(n);
    y.resize(n);
    std::mt19937_64 random(1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (std::size_t k = 0; k < n;) {
        if (!logistic) {
            x[k] = 2.8 + 1.2 * unit(random);
            y[k++] = unit(random);
            continue;
        }
        const double r = 2.8 + 1.2 * ((k / (n / columns)) % columns + 0.5) / columns;
        double v = 0.3;
        for (std::size_t i = 0; i < n / columns && k < n; ++i) {
            v = r * v * (1 - v);
            x[k] = r;
            y[k++] = v;
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    render::OffscreenContext context;
    render::Renderer renderer;
    if (!bench::start_renderer("bench_gl_interop", context, renderer)) return 1;
    render::Gl& gl = *renderer.gl();
    const render::RenderPathChoice choice = render::choose_render_path();
    std::printf("path: %s\n", qPrintable(choice.description));
    if (!choice.cuda) return 77;
    render::CudaRenderPath path(choice.device);

    const int side = 2048;
    QOpenGLFramebufferObject density_fbo(side, side);
    density_fbo.bind();
    gl.glViewport(0, 0, side, side);
    render::DensityLayer density;
    density.resize(gl, QSize(side, side));
    density.setRamp(gl, render::ramp_of(plot::ColorMap(plot::ColorMapKind::Magma)));
    const auto binning = render::make_density_binning(2.8, 4.0, false, 0.0, 1.0, false, side, side);
    const render::DataRect view{2.8, 0, 4.0, 1};
    for (const bool logistic : {false, true}) {
        std::vector<double> x, y;
        make_points(logistic, x, y);
        path.setPoints(x, y);
        const Timing bin = median_of(path.stream(), 7, [&] { path.binInto(density, binning); });
        const auto begin = std::chrono::steady_clock::now();
        gl.glClear(GL_COLOR_BUFFER_BIT);
        renderer.draw(density, view, view);
        gl.glFinish();
        const double draw_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        std::printf(
            "density 2048^2, 10^8 %s points (double columns on the GPU): bin %.3f ms GPU, %.3f ms wall "
            "(densest pixel %u); draw %.2f ms\n",
            logistic ? "logistic-map" : "uniform", bin.gpu_ms, bin.wall_ms, density.mostCount(), draw_ms);
    }
    path.setPoints({}, {});

    const QSize map_size(3840, 2160);
    const std::size_t cells = std::size_t(map_size.width()) * map_size.height();
    std::vector<double> values(cells);
    std::vector<std::uint8_t> statuses(cells, 0);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-0.5, 0.5);
    for (std::size_t k = 0; k < cells; ++k) {
        values[k] = uniform(random);
        if (k % 997 == 0) statuses[k] = 5;
    }
    // As a GPU run would leave them: the results already in device memory.
    cuda::DeviceBuffer<double> device_values(path.context(), cells);
    cuda::DeviceBuffer<std::uint8_t> device_statuses(path.context(), cells);
    device_values.upload(values);
    device_statuses.upload(statuses);
    QOpenGLFramebufferObject map_fbo(map_size);
    map_fbo.bind();
    gl.glViewport(0, 0, map_size.width(), map_size.height());
    render::MapLayer map;
    map.resize(gl, map_size);
    map.setScalar(gl, render::ramp_of(plot::ColorMap(plot::ColorMapKind::Diverging)), -0.5, 0.5);
    const cuda::DeviceMapCells device_cells{
        reinterpret_cast<cuda::driver::CUdeviceptr>(device_values.device_pointer()),
        reinterpret_cast<cuda::driver::CUdeviceptr>(device_statuses.device_pointer()), cells,
        cuda::ColumnType::Float64};
    const Timing update = median_of(path.stream(), 7, [&] {
        path.writeMap(map, device_cells);
        path.stream().synchronize();
    });
    std::printf("map 3840x2160 from GPU results: update %.3f ms GPU, %.3f ms wall (map, convert, unmap)\n",
                update.gpu_ms, update.wall_ms);
    path.release();
    density.release();
    map.release();
    renderer.release();
    return 0;
}
