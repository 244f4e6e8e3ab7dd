// Times of ui/render's host path: 10^7 points binned into a 2048^2 histogram, uploaded and drawn as
// a density layer; a 3840x2160 map's values and statuses uploaded and drawn. Each draw ends with
// glFinish so the time includes the GPU's work. Run under xvfb-run -a where there is no display.
#include "gl_bench_support.h"
#include "ui/plot/color_map.h"
#include "ui/render/plot_colours.h"
#include "ui/render/renderer.h"

#include <QGuiApplication>
#include <QOpenGLFramebufferObject>
#include <algorithm>
#include <bitset>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

using namespace bif;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Median of `runs` timings of f().
template <class F>
double median_ms(int runs, F f) {
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        f();
        t.push_back(ms_since(start));
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QGuiApplication app(argc, argv);
    render::OffscreenContext context;
    render::Renderer renderer;
    if (!bench::start_renderer("bench_gl_render", context, renderer)) return 1;
    render::Gl& gl = *renderer.gl();

    // Density: logistic-map points, 2048 r values of 4883 iterates each (10^7 points).
    const int side = 2048;
    const std::size_t points = 10'000'000;
    std::vector<std::uint32_t> counts(std::size_t(side) * side);
    std::uint32_t most = 0;
    const double bin_ms = median_ms(3, [&] {
        std::fill(counts.begin(), counts.end(), 0u);
        most = 0;
        const std::size_t per_column = points / side;
        for (int c = 0; c < side; ++c) {
            const double r = 2.8 + 1.2 * (c + 0.5) / side;
            double x = 0.3;
            for (std::size_t n = 0; n < per_column; ++n) {
                x = r * x * (1 - x);
                const int py = std::min(side - 1, static_cast<int>((1.0 - x) * side));
                most = std::max(most, ++counts[std::size_t(py) * side + c]);
            }
        }
    });
    QOpenGLFramebufferObject density_fbo(side, side);
    density_fbo.bind();
    gl.glViewport(0, 0, side, side);
    render::DensityLayer density;
    density.resize(gl, QSize(side, side));
    density.setRamp(gl, render::ramp_of(plot::ColorMap(plot::ColorMapKind::Magma)));
    const render::DataRect unit{0, 0, 1, 1};
    const double upload_ms = median_ms(5, [&] {
        density.setCounts(gl, counts.data(), most);
        gl.glFinish();
    });
    const double draw_ms = median_ms(5, [&] {
        gl.glClear(GL_COLOR_BUFFER_BIT);
        renderer.draw(density, unit, unit);
        gl.glFinish();
    });
    std::printf("density 2048^2, 10^7 points: bin %.1f ms (CPU), upload %.2f ms, draw %.2f ms\n", bin_ms,
                upload_ms, draw_ms);

    // Map: 3840x2160 scalar values with a few failed cells.
    const QSize map_size(3840, 2160);
    std::vector<float> values(std::size_t(map_size.width()) * map_size.height());
    std::vector<std::uint8_t> statuses(values.size(), 1);
    std::mt19937 random(7);
    std::uniform_real_distribution<float> uniform(-0.5f, 0.5f);
    for (std::size_t k = 0; k < values.size(); ++k) {
        values[k] = uniform(random);
        if (k % 997 == 0) statuses[k] = 5;
    }
    QOpenGLFramebufferObject map_fbo(map_size);
    map_fbo.bind();
    gl.glViewport(0, 0, map_size.width(), map_size.height());
    render::MapLayer map;
    map.resize(gl, map_size);
    map.setScalar(gl, render::ramp_of(plot::ColorMap(plot::ColorMapKind::Diverging)), -0.5, 0.5);
    std::bitset<256> failed;
    failed[5] = true;
    map.setFailed(failed, plot::failed_color);
    const double map_upload_ms = median_ms(5, [&] {
        map.setCells(gl, values.data(), statuses.data());
        gl.glFinish();
    });
    const double map_draw_ms = median_ms(5, [&] {
        gl.glClear(GL_COLOR_BUFFER_BIT);
        renderer.draw(map, unit, unit);
        gl.glFinish();
    });
    std::printf("map 3840x2160: upload %.2f ms, draw %.2f ms\n", map_upload_ms, map_draw_ms);
    density.release();
    map.release();
    renderer.release();
    return 0;
}
