// The plot view's EGL canvas (ui/views/figure_egl_canvas): where the window system gives Qt no
// OpenGL (here Qt's offscreen platform), the figure drawn by OpenGL in an EGL device context of the
// canvas's own and read back. On the GPU server that device is the CUDA GPU; here
// BIFSCOPE_EGL_CANVAS=1 lets it take Mesa's software device, so the same widget is tested on CI.
// The picture is checked against the colours the figure's own cells must have (independent of GL),
// the veil of an outdated figure over it, and a diagram drawn; without any EGL device the program
// ends with 77 (skipped).
#include "gui_test_support.h"
#include "plot_view_figures.h"
#include "ui/plot/result_figure.h"
#include "ui/views/figure_egl_canvas.h"
#include "ui/views/plot_view.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>

using namespace bif;

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
    const auto r = test::patterned_period_map(*s, n0);
    ui::PlotView view;
    const auto figure = test::show_result(view, s, r);
    INFO(view.renderPath().toStdString());
    REQUIRE(view.renderPath().startsWith("OpenGL 3.3, EGL offscreen ("));
    // A map's cells come from host memory on every path.
    CHECK(view.renderPath().contains("host upload"));
    const QImage shot = test::save_screenshot(view, "egl_canvas_period_map");
    const QRectF area = view.plotArea();
    CHECK(test::wrong_period_cells(shot, area, *r, n0, n1) == 0);

    // Outdated: the veil lies over the picture, so a cell no longer has its own colour.
    const QPoint first_cell(static_cast<int>(area.left() + 0.5 / n0 * area.width()),
                            static_cast<int>(area.bottom() - 0.5 / n1 * area.height()));
    view.setStale(true);
    const QImage veiled = test::save_screenshot(view, "egl_canvas_period_map_outdated");
    CHECK_FALSE(test::near_colour(veiled.pixel(first_cell), shot.pixel(first_cell)));
    view.setStale(false);

    // A diagram of the logistic map's points: drawn, so the plot area is not all background.
    const auto d = test::diagram_study(2.8, 4.0, 600, 200);
    auto diagram = std::make_shared<plot::ResultFigure>(d);
    diagram->setResult(test::logistic_points(*d));
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
            drawn += !test::near_colour(diagram_shot.pixel(x, y), base);
    CHECK(drawn > 200);
}
