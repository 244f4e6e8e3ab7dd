// A zoom's recomputation keeps the previous picture: rescaled to the new view, it shows wherever
// the new run's first blocks have not drawn yet, and goes once the new run has every system.
#include "plot_test_studies.h"
#include "ui/plot/figure_painter.h"
#include "ui/plot/result_figure.h"
#include "ui/plot/zoomed_study.h"
#include "ui/views/plot_view.h"
#include "ui/window/figure_result_view.h"

#include <QTest>
#include <QVBoxLayout>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;

namespace {

// Map systems `systems` of `s`, each with lambda_max from `lambda` and period 1.
template <class L>
jobs::ResultBlock map_block(const study::ResolvedStudy& s, std::vector<std::size_t> systems, L lambda) {
    study::ResolvedStudy part = s;
    part.grid = s.grid.subset(systems);
    auto r = std::make_shared<study::Result>(study::allocate_result(part));
    for (std::size_t k = 0; k < systems.size(); ++k) {
        r->status[k] = study::SystemStatus::Ok;
        test::column(*r, "lambda_max").values[k] = lambda(systems[k]);
        test::column(*r, "period").values[k] = 1.0;
    }
    jobs::ResultBlock b;
    b.result = r;
    b.systems = std::move(systems);
    return b;
}

std::vector<std::size_t> rows(std::size_t n0, std::size_t from, std::size_t to) {
    std::vector<std::size_t> systems;
    for (std::size_t j = from; j < to; ++j)
        for (std::size_t i = 0; i < n0; ++i)
            systems.push_back(j * n0 + i);
    return systems;
}

// The colour on screen at data point (x, y).
QRgb colour_at(ui::PlotView& view, double x, double y) {
    const QImage shot = view.grab().toImage();
    const QPointF p = plot::FigurePainter::toPixel(view.plotArea(), view.range(), x, y);
    return shot.pixel(p.toPoint());
}

bool refreshed(ui::PlotView& view) {
    const bool done = test::wait_until([&] { return view.figure() && !view.figure()->needsRefresh(); }, 5000);
    INFO("received " << view.figure()->systemsReceived() << " image " << view.figure()->image().width());
    CHECK(done);
    test::wait_until([] { return false; }, 100);
    return done;
}

} // namespace

TEST_CASE("a zoom keeps the previous picture under the new passes until they cover it", "[plot][zoom]") {
    const std::size_t n0 = 40, n1 = 30;
    const auto first = test::map_study(int(n0), int(n1)); // k in [0.1, 0.4], b in [0.1, 0.5]
    QWidget host;
    ui::FigureResultView result_view(first, &host);
    (new QVBoxLayout(&host))->addWidget(result_view.widget());
    QWidget* widget = &host;
    widget->resize(640, 480);
    widget->show();
    ui::PlotView& view = result_view.plotView();
    REQUIRE(view.figure()->setQuantity(QString("lambda_max")));
    // The whole first picture, as a run brings it: lambda rises along k.
    result_view.begin(first);
    CHECK_FALSE(view.hasBackdrop()); // nothing drawn yet to keep
    result_view.addBlock(map_block(*first, rows(n0, 0, n1), [&](std::size_t s) { return double(s % n0); }));
    REQUIRE(refreshed(view));
    // A cell centre of the old grid that the zoomed run's first block leaves empty.
    const double k = 0.1 + 0.3 * 19 / 39, b = 0.1 + 0.4 * 20 / 29;
    const QRgb old_colour = colour_at(view, k, b);
    const QRgb base = view.palette().color(QPalette::Base).rgb();
    REQUIRE(old_colour != base);

    // Zoom to k in [0.2, 0.3], b in [0.2, 0.4]; the new run's first block covers only b < 0.27.
    const plot::PlotRange zoom{{0.2, 0.3, false}, {0.2, 0.4, false}};
    view.setRange(zoom);
    const auto zoomed = test::resolve(plot::zoomed_study(first->study, zoom, QSize(int(n0), int(n1))));
    result_view.begin(zoomed);
    CHECK(view.hasBackdrop());
    result_view.addBlock(map_block(*zoomed, rows(n0, 0, 10), [](std::size_t) { return 100.0; }));
    REQUIRE(refreshed(view));
    test::save_screenshot(*widget, "plot_zoom_backdrop_midway");
    CHECK(view.hasBackdrop());
    CHECK(colour_at(view, k, b) == old_colour);                  // the old picture, rescaled
    CHECK(colour_at(view, 0.25, 0.21) != colour_at(view, k, b)); // the new block drawn over it

    // Every system in: the old picture goes, and the new one is alone.
    result_view.addBlock(map_block(*zoomed, rows(n0, 10, n1), [](std::size_t) { return 100.0; }));
    REQUIRE(refreshed(view));
    CHECK_FALSE(view.hasBackdrop());
    CHECK(colour_at(view, k, b) == colour_at(view, 0.25, 0.21));
    test::save_screenshot(*widget, "plot_zoom_backdrop_done");
}
