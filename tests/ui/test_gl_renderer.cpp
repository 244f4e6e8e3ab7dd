// ui/render drawn into a framebuffer object of an offscreen OpenGL 3.3 core context, read back and
// compared with pictures computed here from the same numbers: the histogram binned in C++, the
// scaling and the colour tables of ui/plot/color_map. Equal, or within one level per channel; where
// the exact level falls within 1e-3 of a table step (float on the GPU, double here) either
// neighbouring entry is accepted.
#include "engine/study/result.h"
#include "gl_test_target.h"
#include "gui_test_support.h"
#include "plot_test_studies.h"
#include "plot_view_figures.h"
#include "ui/plot/color_map.h"
#include "ui/plot/map_colouring.h"
#include "ui/plot/result_figure.h"
#include "ui/render/plot_colours.h"
#include "ui/render/renderer.h"
#include "ui/views/plot_view.h"

#include <QGuiApplication>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

using namespace bif;

namespace {

constexpr QRgb background = 0xffffffff;

// The colours a pixel may rightly have: one, or two where the reference sits on a table step.
struct Allowed {
    QRgb a, b;
};

bool near(QRgb x, QRgb y) {
    return std::abs(qRed(x) - qRed(y)) <= 1 && std::abs(qGreen(x) - qGreen(y)) <= 1 &&
           std::abs(qBlue(x) - qBlue(y)) <= 1 && std::abs(qAlpha(x) - qAlpha(y)) <= 1;
}

// Pixels of `got` (top row first) that match neither allowed colour.
int misses(const QImage& got, const std::function<Allowed(int x, int y)>& expected) {
    int missed = 0;
    for (int y = 0; y < got.height(); ++y)
        for (int x = 0; x < got.width(); ++x) {
            const QRgb g = got.pixel(x, y);
            const Allowed e = expected(x, y);
            if (!near(g, e.a) && !near(g, e.b)) {
                if (missed < 5)
                    UNSCOPED_INFO("pixel " << x << "," << y << ": got " << std::hex << g << ", expected "
                                           << e.a << " or " << e.b << std::dec);
                ++missed;
            }
        }
    return missed;
}

// Entry of a 256-entry table for position p = level*255 + 0.5 (truncated), and its neighbour below
// when p sits on a step.
Allowed table_entry(const std::array<QRgb, 256>& table, double p) {
    const int i = std::clamp(static_cast<int>(p), 0, 255);
    const double f = p - std::floor(p);
    const int j = f < 1e-3 ? std::max(0, i - 1) : f > 1 - 1e-3 ? std::min(255, i + 1) : i;
    return {table[i], table[j]};
}

std::array<QRgb, 256> table_of(const plot::ColorMap& map) {
    std::array<QRgb, 256> t{};
    for (int i = 0; i < 256; ++i)
        t[i] = map.at(i / 255.0);
    return t;
}

void clear(render::Gl& gl, QSize size) {
    gl.glViewport(0, 0, size.width(), size.height());
    gl.glClearColor(1, 1, 1, 1);
    gl.glClear(GL_COLOR_BUFFER_BIT);
}

} // namespace

TEST_CASE("a density image of the logistic map equals its histogram through the ramp", "[render][density]") {
    const QSize size(400, 300);
    test::GlTarget target(size);
    render::Renderer renderer;
    QString error;
    REQUIRE(renderer.initialize(&error));
    render::Gl& gl = *renderer.gl();

    // Points of x -> r x (1 - x) for r in [2.8, 4], one r per column, binned here independently.
    const double r0 = 2.8, r1 = 4.0;
    std::vector<std::uint32_t> counts(size.width() * size.height(), 0);
    std::uint32_t most = 0;
    for (int c = 0; c < size.width(); ++c) {
        const double r = r0 + (c + 0.5) / size.width() * (r1 - r0);
        double x = 0.3;
        for (int n = 0; n < 1500; ++n) {
            x = r * x * (1 - x);
            if (n < 500) continue;
            const int px = static_cast<int>((r - r0) / (r1 - r0) * size.width());
            const int py = static_cast<int>((1.0 - x) * size.height());
            if (px < 0 || px >= size.width() || py < 0 || py >= size.height()) continue;
            most = std::max(most, ++counts[py * size.width() + px]);
        }
    }
    std::array<QRgb, 256> ramp{};
    const plot::ColorMap magma(plot::ColorMapKind::Magma);
    for (int i = 0; i < 256; ++i)
        ramp[i] = magma.at(0.72 * (1.0 - i / 255.0));

    render::DensityLayer layer;
    layer.resize(gl, size);
    layer.setCounts(gl, counts.data(), most);
    layer.setRamp(gl, ramp);
    const bool log = GENERATE(true, false);
    layer.setScaling(log ? render::DensityScaling::Log : render::DensityScaling::Linear);
    clear(gl, size);
    const render::DataRect extent{r0, 0.0, r1, 1.0};
    renderer.draw(layer, extent, extent);
    const QImage got = target.read();
    layer.release();
    renderer.release();

    const auto expected = [&](int x, int y) -> Allowed {
        const std::uint32_t c = counts[y * size.width() + x];
        if (c == 0) return {background, background};
        const double level = log ? std::log1p(double(c)) / std::log1p(double(most)) : double(c) / most;
        return table_entry(ramp, level * 255.0 + 0.5);
    };
    INFO((log ? "log" : "linear") << " scaling, densest pixel " << most);
    CHECK(most > 100);
    CHECK(misses(got, expected) == 0);
}

TEST_CASE("a period map shows its categories, failed systems and empty cells", "[render][map]") {
    const int nx = 64, ny = 48, scale = 4;
    const QSize size(nx * scale, ny * scale);
    test::GlTarget target(size);
    render::Renderer renderer;
    REQUIRE(renderer.initialize());
    render::Gl& gl = *renderer.gl();

    std::vector<float> values(nx * ny);
    std::vector<std::uint8_t> statuses(nx * ny);
    plot::MapColouring colouring("period", false);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const int k = j * nx + i;
            values[k] = static_cast<float>((i / 8 + j / 8) % 7); // 0: no period found
            auto status = study::SystemStatus::Ok;
            if ((i * 7 + j * 3) % 23 == 0) status = study::SystemStatus::NonFinite;
            if ((i + j) % 31 == 0) status = study::SystemStatus::StepBudgetExceeded;
            if (i == 40 && j == 5) status = study::SystemStatus::NotRun;
            statuses[k] = static_cast<std::uint8_t>(status);
            if (i < 2 && j < 3)
                statuses[k] = render::no_system;
            else
                colouring.include(values[k], status);
        }
    colouring.settle();

    render::MapLayer layer;
    layer.resize(gl, QSize(nx, ny));
    layer.setCells(gl, values.data(), statuses.data());
    render::colour_like(gl, layer, colouring);
    // The whole grid, then its left half only: each cell twice as wide.
    const bool zoomed = GENERATE(false, true);
    const render::DataRect extent{0.1, 0.1, 0.4, 0.5};
    const render::DataRect view = zoomed ? render::DataRect{0.1, 0.1, 0.25, 0.5} : extent;
    clear(gl, size);
    renderer.draw(layer, extent, view);
    const QImage got = target.read();
    layer.release();
    renderer.release();

    const int per_cell_x = zoomed ? 2 * scale : scale;
    const auto expected = [&](int x, int y) -> Allowed {
        const int i = x / per_cell_x, j = ny - 1 - y / scale;
        const std::uint8_t s = statuses[j * nx + i];
        const int v = static_cast<int>(values[j * nx + i]);
        const QRgb c = s == render::no_system                      ? background
                       : study::is_failure(study::SystemStatus(s)) ? plot::failed_color
                       : v <= 0                                    ? plot::none_found_color
                                                                   : plot::categorical_color(v - 1);
        return {c, c};
    };
    INFO((zoomed ? "left half" : "whole grid"));
    CHECK(misses(got, expected) == 0);
}

TEST_CASE("a Lyapunov map runs through the diverging ramp centred on zero", "[render][map]") {
    const int nx = 200, ny = 150;
    const QSize size(nx, ny);
    test::GlTarget target(size);
    render::Renderer renderer;
    REQUIRE(renderer.initialize());
    render::Gl& gl = *renderer.gl();

    std::vector<float> values(nx * ny);
    std::vector<std::uint8_t> statuses(nx * ny, static_cast<std::uint8_t>(study::SystemStatus::Ok));
    plot::MapColouring colouring("lambda1", false);
    double largest = 0.0;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const int k = j * nx + i;
            values[k] = static_cast<float>(0.4 * std::sin(i * 0.05) * std::cos(j * 0.07) - 0.15 * j / ny);
            if ((i * 13 + j * 5) % 97 == 0) values[k] = std::numeric_limits<float>::quiet_NaN();
            if ((i * 3 + j * 11) % 89 == 0)
                statuses[k] = static_cast<std::uint8_t>(study::SystemStatus::StepSizeUnderflow);
            colouring.include(values[k], study::SystemStatus(statuses[k]));
            if (std::isfinite(values[k]) && !study::is_failure(study::SystemStatus(statuses[k])))
                largest = std::max(largest, std::abs(double(values[k])));
        }
    colouring.settle();

    render::MapLayer layer;
    layer.resize(gl, size);
    layer.setCells(gl, values.data(), statuses.data());
    render::colour_like(gl, layer, colouring);
    clear(gl, size);
    const render::DataRect extent{0.0, 0.0, 1.0, 1.0};
    renderer.draw(layer, extent, extent);
    const QImage got = target.read();
    layer.release();
    renderer.release();

    const auto diverging = table_of(plot::ColorMap(plot::ColorMapKind::Diverging));
    const auto expected = [&](int x, int y) -> Allowed {
        const int k = (ny - 1 - y) * nx + x;
        const double v = values[k];
        if (!std::isfinite(v) || study::is_failure(study::SystemStatus(statuses[k])))
            return {plot::failed_color, plot::failed_color};
        const double t = (v + largest) / (2 * largest); // symmetric about zero
        return table_entry(diverging, std::clamp(t, 0.0, 1.0) * 255.0 + 0.5);
    };
    CHECK(largest > 0.3);
    CHECK(misses(got, expected) == 0);
}

TEST_CASE("the plot view draws a period map and a diagram through OpenGL", "[render][view]") {
    if (QGuiApplication::platformName() == QStringLiteral("offscreen")) {
        WARN("the GL plot view needs a windowing platform (QT_QPA_PLATFORM=xcb under xvfb-run)");
        return;
    }
    // Skips the program where Qt gives no GL 3.3 context (the view below needs Qt's).
    test::GlTarget probe(QSize(8, 8), test::GlSource::Qt);
    probe.doneCurrent();
    const int n0 = 12, n1 = 8;
    const auto s = test::map_study(n0, n1);
    const auto r = test::patterned_period_map(*s, n0);
    ui::PlotView view;
    const auto figure = test::show_result(view, s, r);
    INFO(view.renderPath().toStdString());
    REQUIRE(view.renderPath().startsWith("OpenGL"));
    const QImage shot = test::save_screenshot(view, "gl_plot_period_map");
    // Each cell's centre has the colour of its period, or the failed colour.
    CHECK(test::wrong_period_cells(shot, view.plotArea(), *r, n0, n1) == 0);

    // A diagram of the logistic map's points, for the screenshot.
    const auto d = test::diagram_study(2.8, 4.0, 600, 200);
    auto diagram = std::make_shared<plot::ResultFigure>(d);
    diagram->setResult(test::logistic_points(*d));
    view.setFigure(diagram);
    REQUIRE(test::wait_until([&] { return !diagram->needsRefresh(); }, 5000));
    REQUIRE(view.renderPath().startsWith("OpenGL"));
    const QImage diagram_shot = test::save_screenshot(view, "gl_plot_logistic_diagram");
    CHECK(diagram_shot.pixel(view.plotArea().center().toPoint()) != 0);
}
