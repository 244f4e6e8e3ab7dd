// On a GPU: the render kernels (kernels/bif/render/render_kernels.cuh) bin seeded random points into
// a histogram exactly as the host path does, written out here as ui/plot/result_figure bins them
// (NaN, infinities, points outside and on the edges included), and convert map cells to the
// layer's float values and status bytes. No OpenGL: plain device buffers stand in for GL buffers.
#include "engine/cuda/context.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/render_kernels.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

using namespace bif::cuda;

namespace {

// ResultFigure::binSystems' rule, restated: pixels per unit, the right edge folded into the last
// column, row 0 at the top.
struct ReferenceBins {
    double x0, x1, y0, y1;
    int w, h;
    std::vector<std::uint32_t> counts = std::vector<std::uint32_t>(std::size_t(w) * h, 0);

    void add(double x, double y) {
        const double sx = w / (x1 - x0), sy = h / (y1 - y0);
        double px = (x - x0) * sx;
        if (px >= w && px <= w * (1.0 + 1e-9)) px = w - 0.5;
        if (!(px >= 0.0 && px < w)) return;
        const double py = (y1 - y) * sy;
        if (!(py >= 0.0 && py < h)) return;
        ++counts[std::size_t(py) * w + std::size_t(px)];
    }
};

template <class Real>
void check_binning(const Context& context, const RenderKernels& kernels) {
    const double x0 = 2.8, x1 = 4.0, y0 = -0.1, y1 = 1.05;
    const int w = 701, h = 389;
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> ux(x0 - 0.1, x1 + 0.1), uy(y0 - 0.1, y1 + 0.1);
    std::vector<Real> x, y;
    for (int k = 0; k < 400000; ++k) {
        x.push_back(Real(ux(random)));
        y.push_back(Real(uy(random)));
    }
    // The logistic map's attractor piles many points into few pixels; then the awkward ones.
    for (int c = 0; c < 700; ++c) {
        const double r = x0 + (c + 0.5) / 700 * (x1 - x0);
        double v = 0.4;
        for (int n = 0; n < 300; ++n) {
            v = r * v * (1 - v);
            x.push_back(Real(r));
            y.push_back(Real(v));
        }
    }
    const double nan = std::numeric_limits<double>::quiet_NaN(),
                 inf = std::numeric_limits<double>::infinity();
    for (auto [a, b] : {std::pair{x0, y0},
                        {x1, y1},
                        {x1, y0},
                        {x0, y1},
                        {nan, 0.5},
                        {3.0, nan},
                        {inf, 0.5},
                        {3.0, -inf},
                        {x1 * (1 + 1e-12), 0.5},
                        {x1 * (1 + 1e-6), 0.5}})
        for (int repeat = 0; repeat < 3; ++repeat) {
            x.push_back(Real(a));
            y.push_back(Real(b));
        }
    ReferenceBins reference{x0, x1, y0, y1, w, h};
    for (std::size_t k = 0; k < x.size(); ++k)
        reference.add(double(x[k]), double(y[k]));
    const std::uint32_t reference_most = *std::max_element(reference.counts.begin(), reference.counts.end());

    DeviceBuffer<Real> dx(context, x.size()), dy(context, y.size());
    dx.upload(x);
    dy.upload(y);
    DeviceBuffer<std::uint32_t> counts(context, reference.counts.size()), most(context, 1);
    const Stream stream(context);
    const auto address = [](const auto& buffer) { return driver::CUdeviceptr(buffer.device_pointer()); };
    const DevicePoints points{address(dx), address(dy), x.size(),
                              sizeof(Real) == 8 ? ColumnType::Float64 : ColumnType::Float32};
    const auto binning = bif::render::make_density_binning(x0, x1, false, y0, y1, false, w, h);
    // Twice: the second run must start from zero again.
    kernels.bin_density(points, binning, address(counts), address(most), stream);
    kernels.bin_density(points, binning, address(counts), address(most), stream);
    stream.synchronize();
    const std::vector<std::uint32_t> got = counts.to_vector();
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
        differ += got[i] != reference.counts[i];
    INFO(sizeof(Real) * 8 << "-bit columns; densest pixel " << reference_most);
    CHECK(reference_most > 100);
    CHECK(differ == 0);
    CHECK(most.to_vector()[0] == reference_most);
}

} // namespace

TEST_CASE("the GPU bins points into the same pixels as the host", "[gpu][render]") {
    const Context context(0);
    const RenderKernels kernels(context);
    check_binning<double>(context, kernels);
    check_binning<float>(context, kernels);
}

TEST_CASE("the GPU writes map cells as the layer's floats and status bytes, or statuses as values",
          "[gpu][render]") {
    const Context context(0);
    const RenderKernels kernels(context);
    const std::size_t n = 3840 * 7 + 13;
    std::vector<double> values(n);
    std::vector<std::uint8_t> statuses(n);
    std::mt19937 random(5);
    std::normal_distribution<double> normal(0.0, 1e3);
    for (std::size_t k = 0; k < n; ++k) {
        values[k] = k % 97 == 0 ? std::numeric_limits<double>::quiet_NaN() : normal(random);
        statuses[k] = std::uint8_t(k % 5 == 0 ? 0xff : k % 7);
    }
    DeviceBuffer<double> dv(context, n);
    DeviceBuffer<std::uint8_t> ds(context, n), out_s(context, n);
    DeviceBuffer<float> out_v(context, n);
    dv.upload(values);
    ds.upload(statuses);
    const Stream stream(context);
    const auto address = [](const auto& buffer) { return driver::CUdeviceptr(buffer.device_pointer()); };
    kernels.write_map_cells({address(dv), address(ds), n, ColumnType::Float64}, address(out_v),
                            address(out_s), stream);
    stream.synchronize();
    const std::vector<float> got_v = out_v.to_vector();
    const std::vector<std::uint8_t> got_s = out_s.to_vector();
    std::size_t differ = 0;
    for (std::size_t k = 0; k < n; ++k) {
        const float want = static_cast<float>(values[k]);
        const bool same = std::isnan(want) ? std::isnan(got_v[k]) : got_v[k] == want;
        differ += !same || got_s[k] != statuses[k];
    }
    CHECK(differ == 0);
    // the status view: each cell's status byte as its value too, whatever the values were
    kernels.write_status_cells({address(dv), address(ds), n, ColumnType::Float64}, address(out_v),
                               address(out_s), stream);
    stream.synchronize();
    const std::vector<float> status_v = out_v.to_vector();
    const std::vector<std::uint8_t> status_s = out_s.to_vector();
    differ = 0;
    for (std::size_t k = 0; k < n; ++k)
        differ += status_v[k] != float(statuses[k]) || status_s[k] != statuses[k];
    CHECK(differ == 0);
}

// Not a check: the kernels' own times for the benchmark sizes of issue 11 (bench_gl_interop adds the
// GL mapping). Run with the tag: test_cuda_render_kernels "[.timing]".
TEST_CASE("render kernel times at the issue's sizes", "[.timing][gpu][render]") {
    const Context context(0);
    const RenderKernels kernels(context);
    const Stream stream(context);
    const auto address = [](const auto& buffer) { return driver::CUdeviceptr(buffer.device_pointer()); };
    const auto median_ms = [&](auto&& work) {
        Event start(context), stop(context);
        std::vector<float> t;
        for (int run = 0; run < 7; ++run) {
            start.record(stream);
            work();
            stop.record(stream);
            t.push_back(Event::elapsed_milliseconds(start, stop));
        }
        std::sort(t.begin(), t.end());
        return t[t.size() / 2];
    };
    for (const bool doubles : {false, true}) {
        const std::size_t n = 100'000'000;
        std::vector<float> xf(n), yf(n);
        std::uint64_t state = 1;
        for (std::size_t k = 0; k < n; ++k) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            xf[k] = float(state >> 40) * 0x1p-24f;
            yf[k] = float((state >> 16) & 0xffffffu) * 0x1p-24f;
        }
        DeviceBuffer<std::uint32_t> counts(context, 2048 * 2048), most(context, 1);
        const auto binning = bif::render::make_density_binning(0, 1, false, 0, 1, false, 2048, 2048);
        float ms = 0;
        if (doubles) {
            DeviceBuffer<double> dx(context, n), dy(context, n);
            dx.upload(std::vector<double>(xf.begin(), xf.end()));
            dy.upload(std::vector<double>(yf.begin(), yf.end()));
            const DevicePoints points{address(dx), address(dy), n, ColumnType::Float64};
            ms = median_ms(
                [&] { kernels.bin_density(points, binning, address(counts), address(most), stream); });
        } else {
            DeviceBuffer<float> dx(context, n), dy(context, n);
            dx.upload(xf);
            dy.upload(yf);
            const DevicePoints points{address(dx), address(dy), n, ColumnType::Float32};
            ms = median_ms(
                [&] { kernels.bin_density(points, binning, address(counts), address(most), stream); });
        }
        std::printf("10^8 %s points into 2048x2048 with the maximum: %.3f ms (median of 7)\n",
                    doubles ? "double" : "float", ms);
    }
    const std::size_t cells = 3840 * 2160;
    DeviceBuffer<double> values(context, cells);
    DeviceBuffer<std::uint8_t> statuses(context, cells), out_s(context, cells);
    DeviceBuffer<float> out_v(context, cells);
    values.upload(std::vector<double>(cells, 0.25));
    statuses.upload(std::vector<std::uint8_t>(cells, 0));
    const float ms = median_ms([&] {
        kernels.write_map_cells({address(values), address(statuses), cells, ColumnType::Float64},
                                address(out_v), address(out_s), stream);
    });
    std::printf("3840x2160 map cells (double values, status bytes): %.3f ms (median of 7)\n", ms);
}
