// The plot view's EGL canvas (ui/views/figure_egl_canvas): where the window system gives Qt no
// OpenGL (here Qt's offscreen platform), the figure drawn by OpenGL in an EGL device context of the
// canvas's own and read back. On the GPU server that device is the CUDA GPU; here
// BIFSCOPE_EGL_CANVAS=1 lets it take Mesa's software device, so the same widget is tested on CI.
// The picture is checked against the colours the figure's own cells must have (independent of GL),
// the veil of an outdated figure over it, and a diagram drawn; without any EGL device the program
// ends with 77 (skipped).
#include "gui_test_support.h"
#include "plot_test_studies.h"
#include "ui/plot/color_map.h"
#include "ui/plot/result_figure.h"
#include "ui/views/figure_egl_canvas.h"
#include "ui/views/plot_view.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>

using namespace bif;

namespace {

bool near(QRgb x, QRgb y) {
    return std::abs(qRed(x) - qRed(y)) <= 1 && std::abs(qGreen(x) - qGreen(y)) <= 1 &&
           std::abs(qBlue(x) - qBlue(y)) <= 1;
}

} // namespace

TEST_CASE("the plot view draws through an EGL canvas where Qt gives no OpenGL", "[render][view][egl]") {
    qputenv("BIFSCOPE_EGL_CANVAS", "1"); // before the first PlotView asks: any EGL device will do
    QString why;
    ui::FigureEglCanvas::available(&why);
    if (!why.isEmpty()) {
        std::printf("SKIP: %s\n", qPrintable(why));
        std::exit(77);
    }
    const int n0 = 12, n1 = 8;
    const auto s = test::map_study(n0, n1);
    auto r = std::make_shared<study::Result>(study::allocate_result(*s));
    auto& period = test::column(*r, "period").values;
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        r->status[sys] = (sys % 17 == 5) ? study::SystemStatus::NonFinite : study::SystemStatus::Ok;
        period[sys] = static_cast<double>((sys % n0 / 3 + sys / n0 / 2) % 5); // 0: none found
    }
    auto figure = std::make_shared<plot::ResultFigure>(s);
    figure->setResult(r);
    ui::PlotView view;
    view.resize(640, 420);
    view.setFigure(figure);
    figure->refresh();
    view.figureChanged();
    REQUIRE(test::wait_until([&] { return !figure->needsRefresh(); }, 5000));
    INFO(view.renderPath().toStdString());
    REQUIRE(view.renderPath().startsWith("OpenGL 3.3, EGL offscreen ("));
    // A map's cells come from host memory on every path.
    CHECK(view.renderPath().contains("host upload"));
    const QImage shot = test::save_screenshot(view, "egl_canvas_period_map");
    const QRectF area = view.plotArea();
    int wrong = 0;
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        const int i = static_cast<int>(sys % n0), j = static_cast<int>(sys / n0);
        const QPoint centre(static_cast<int>(area.left() + (i + 0.5) / n0 * area.width()),
                            static_cast<int>(area.bottom() - (j + 0.5) / n1 * area.height()));
        const int v = static_cast<int>(period[sys]);
        const QRgb expected = study::is_failure(r->status[sys]) ? plot::failed_color
                              : v <= 0                          ? plot::none_found_color
                                                                : plot::categorical_color(v - 1);
        if (!near(shot.pixel(centre), expected)) {
            if (wrong < 5) UNSCOPED_INFO("cell " << i << "," << j << ": " << std::hex << shot.pixel(centre));
            ++wrong;
        }
    }
    CHECK(wrong == 0);

    // Outdated: the veil lies over the picture, so a cell no longer has its own colour.
    const QPoint first_cell(static_cast<int>(area.left() + 0.5 / n0 * area.width()),
                            static_cast<int>(area.bottom() - 0.5 / n1 * area.height()));
    view.setStale(true);
    const QImage veiled = test::save_screenshot(view, "egl_canvas_period_map_outdated");
    CHECK_FALSE(near(veiled.pixel(first_cell), shot.pixel(first_cell)));
    view.setStale(false);

    // A diagram of the logistic map's points: drawn, so the plot area is not all background.
    const auto d = test::diagram_study(2.8, 4.0, 600, 200);
    auto points = std::make_shared<study::Result>(study::allocate_result(*d));
    for (std::size_t sys = 0; sys < points->system_count; ++sys) {
        const double rr = 2.8 + 1.2 * static_cast<double>(sys) / (points->system_count - 1);
        double x = 0.3;
        for (int n = 0; n < 300; ++n)
            x = rr * x * (1 - x);
        points->status[sys] = study::SystemStatus::Ok;
        points->points.rows_filled[sys] = static_cast<std::uint32_t>(points->points.rows_per_system);
        for (std::size_t row = 0; row < points->points.rows_per_system; ++row)
            points->points.row(sys, row)[0] = x = rr * x * (1 - x);
    }
    auto diagram = std::make_shared<plot::ResultFigure>(d);
    diagram->setResult(points);
    view.setFigure(diagram);
    REQUIRE(test::wait_until([&] { return !diagram->needsRefresh(); }, 5000));
    REQUIRE(view.renderPath().startsWith("OpenGL 3.3, EGL offscreen ("));
    const QImage diagram_shot = test::save_screenshot(view, "egl_canvas_logistic_diagram");
    // On an EGL device that is a CUDA GPU, the diagram was binned there (CudaFigureDensity), and
    // still is after drawing (a CUDA failure would have turned the path to host upload).
    INFO(view.renderPath().toStdString());
    if (ui::FigureEglCanvas::available(nullptr) >= 0 && qgetenv("BIFSCOPE_RENDER_PATH") != "host")
        CHECK(view.renderPath().contains("CUDA on "));
    const QRect plot = view.plotArea().toAlignedRect().adjusted(2, 2, -2, -2);
    const QRgb base = view.palette().color(QPalette::Base).rgb();
    int drawn = 0;
    for (int y = plot.top(); y < plot.bottom(); y += 3)
        for (int x = plot.left(); x < plot.right(); x += 3)
            drawn += !near(diagram_shot.pixel(x, y), base);
    CHECK(drawn > 200);
}
