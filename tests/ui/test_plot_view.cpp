// PlotView: zoom history (wheel, rubber band, back/forward, Home), clicks and hover on map cells,
// coalesced repaints, and screenshots of its main states.
#include "plot_test_studies.h"
#include "ui/views/plot_view.h"

#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;
using plot::PlotRange;

namespace {

constexpr int n0 = 64, n1 = 48;

// Periods in bands along the diagonal, a chaotic wedge of lambda > 0, and one failed system.
std::shared_ptr<const study::Result> map_result(const study::ResolvedStudy& s) {
    auto r = std::make_shared<study::Result>(study::allocate_result(s));
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        const double u = double(sys % n0) / (n0 - 1), v = double(sys / n0) / (n1 - 1);
        r->status[sys] = study::SystemStatus::Ok;
        const bool chaotic = v > 0.6 * u + 0.3;
        test::column(*r, "period").values[sys] = chaotic ? 0.0 : 1.0 + std::floor(4 * (u + v) / 2);
        test::column(*r, "lambda_max").values[sys] = chaotic ? 0.2 * (v - 0.6 * u - 0.3) : -0.3 * (1 - u);
    }
    r->status[20 * n0 + 40] = study::SystemStatus::StepSizeUnderflow;
    return r;
}

struct Fixture {
    std::shared_ptr<const study::ResolvedStudy> study = test::map_study(n0, n1);
    std::shared_ptr<plot::ResultFigure> figure = std::make_shared<plot::ResultFigure>(study);
    ui::PlotView view;
    Fixture() {
        figure->setResult(map_result(*study));
        view.resize(820, 560);
        view.setFigure(figure);
        view.show();
        REQUIRE(QTest::qWaitForWindowExposed(&view));
    }
    QPoint at(double fx, double fy) const { // a point of the plot area by fractions from its top left
        const QRectF a = view.plotArea();
        return QPointF(a.left() + fx * a.width(), a.top() + fy * a.height()).toPoint();
    }
};

void wheel(QWidget& w, QPoint pos, int delta) {
    QWheelEvent e(pos, w.mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(&w, &e);
}

bool near(const plot::AxisRange& a, double from, double to, double tolerance) {
    return std::abs(a.from - from) < tolerance && std::abs(a.to - to) < tolerance;
}

} // namespace

TEST_CASE("wheel zoom about the cursor settles into viewRequested; back and forward restore",
          "[plot][view]") {
    Fixture t;
    QSignalSpy requested(&t.view, &ui::PlotView::viewRequested);
    const PlotRange full = t.view.range();
    // Two notches at the plot's centre: the centre stays, each half-width shrinks to 0.85^2.
    wheel(t.view, t.at(0.5, 0.5), 120);
    wheel(t.view, t.at(0.5, 0.5), 120);
    CHECK(requested.isEmpty()); // not before the interaction settles
    REQUIRE(requested.wait(1000));
    REQUIRE(requested.size() == 1);
    const auto zoomed = requested.takeFirst().at(0).value<PlotRange>();
    const double cx = (full.x.from + full.x.to) / 2, hx = (full.x.to - full.x.from) / 2 * 0.85 * 0.85;
    const double cy = (full.y.from + full.y.to) / 2, hy = (full.y.to - full.y.from) / 2 * 0.85 * 0.85;
    const double px = (full.x.to - full.x.from) / t.view.plotArea().width(); // one pixel of x
    CHECK(near(zoomed.x, cx - hx, cx + hx, 2 * px));
    CHECK(near(zoomed.y, cy - hy, cy + hy, 2 * px));
    CHECK(t.view.range() == zoomed);

    // Zoom about a corner keeps the data under that corner where it was.
    const QPoint corner = t.at(0.1, 0.9);
    const QPointF before = plot::FigurePainter::toData(t.view.plotArea(), t.view.range(), corner);
    wheel(t.view, corner, 240);
    INFO("range after the corner wheel " << t.view.range().x.from << " .. " << t.view.range().x.to);
    REQUIRE(requested.wait(1000));
    const QPointF after = plot::FigurePainter::toData(t.view.plotArea(), t.view.range(), corner);
    CHECK(after.x() == Approx(before.x()).margin(px));
    CHECK(after.y() == Approx(before.y()).margin(px));
    const PlotRange second = t.view.range();

    QTest::keyClick(&t.view, Qt::Key_Left, Qt::AltModifier);
    CHECK(t.view.range() == zoomed);
    CHECK(requested.takeLast().at(0).value<PlotRange>() == zoomed);
    t.view.back();
    CHECK(t.view.range() == full);
    CHECK_FALSE(t.view.canGoBack());
    QTest::keyClick(&t.view, Qt::Key_Right, Qt::AltModifier);
    t.view.forward();
    CHECK(t.view.range() == second);
    QTest::keyClick(&t.view, Qt::Key_Home);
    CHECK(t.view.range() == full);
}

TEST_CASE("rubber band zoom requests the band's range", "[plot][view]") {
    Fixture t;
    QSignalSpy requested(&t.view, &ui::PlotView::viewRequested);
    const PlotRange full = t.view.range();
    const QPoint a = t.at(0.25, 0.25), b = t.at(0.75, 0.5);
    QTest::mousePress(&t.view, Qt::RightButton, Qt::NoModifier, a);
    QTest::mouseMove(&t.view, t.at(0.5, 0.4));
    QTest::mouseMove(&t.view, b);
    test::save_screenshot(t.view, "plot_view_rubber_band");
    QTest::mouseRelease(&t.view, Qt::RightButton, Qt::NoModifier, b);
    REQUIRE(requested.size() == 1);
    const auto band = requested.takeFirst().at(0).value<PlotRange>();
    const double w = full.x.to - full.x.from, h = full.y.to - full.y.from;
    const double px = w / t.view.plotArea().width() * 1.5, py = h / t.view.plotArea().height() * 1.5;
    CHECK(near(band.x, full.x.from + 0.25 * w, full.x.from + 0.75 * w, px));
    CHECK(near(band.y, full.y.to - 0.5 * h, full.y.to - 0.25 * h, py));
    test::save_screenshot(t.view, "plot_view_after_band");
    t.view.back();
    CHECK(t.view.range() == full);
}

TEST_CASE("drag pans; a click names the cell; hover describes it", "[plot][view]") {
    Fixture t;
    QSignalSpy requested(&t.view, &ui::PlotView::viewRequested);
    QSignalSpy clicked(&t.view, &ui::PlotView::systemClicked);
    QSignalSpy hovered(&t.view, &ui::PlotView::hovered);
    // The centre of cell (i, j): the full range runs over the outer cell edges.
    const int i = 40, j = 10; // below the chaotic wedge
    const QPoint cell = t.at((i + 0.5) / n0, 1.0 - (j + 0.5) / n1);
    QTest::mouseMove(&t.view, cell);
    REQUIRE_FALSE(hovered.isEmpty());
    const double period = 1.0 + std::floor(4 * (double(i) / (n0 - 1) + double(j) / (n1 - 1)) / 2);
    const QString text = hovered.last().at(0).toString();
    INFO(text.toStdString());
    CHECK(text.startsWith("k = "));
    CHECK(text.contains(QString(", period %1").arg(period)));
    QTest::mouseClick(&t.view, Qt::LeftButton, Qt::NoModifier, cell);
    REQUIRE(clicked.size() == 1);
    CHECK(clicked.first().at(0).value<std::size_t>() == std::size_t(j * n0 + i));
    CHECK(requested.isEmpty());

    const QPoint failed = t.at((40 + 0.5) / n0, 1.0 - (20 + 0.5) / n1);
    QTest::mouseMove(&t.view, failed);
    REQUIRE(hovered.size() >= 2);
    CHECK(hovered.last().at(0).toString().contains("step_size_underflow"));

    const PlotRange full = t.view.range();
    QTest::mousePress(&t.view, Qt::LeftButton, Qt::NoModifier, t.at(0.5, 0.5));
    QTest::mouseMove(&t.view, t.at(0.6, 0.5));
    QTest::mouseMove(&t.view, t.at(0.7, 0.5));
    QTest::mouseRelease(&t.view, Qt::LeftButton, Qt::NoModifier, t.at(0.7, 0.5));
    REQUIRE(requested.size() == 1);
    const auto panned = requested.first().at(0).value<PlotRange>();
    const double w = full.x.to - full.x.from;
    CHECK((panned.x.from - full.x.from) == Approx(-0.2 * w).margin(2 * w / t.view.plotArea().width()));
    CHECK(panned.y == full.y);
}

TEST_CASE("repaints are coalesced however fast blocks arrive", "[plot][view]") {
    const auto s = test::map_study(n0, n1);
    const auto whole = map_result(*s);
    auto figure = std::make_shared<plot::ResultFigure>(s);
    ui::PlotView view;
    view.resize(600, 400);
    view.setFigure(figure);
    view.show();
    const std::uint64_t before = figure->revision();
    QElapsedTimer clock;
    clock.start();
    // One block per row, 48 of them, as fast as they come; the event loop runs between them.
    for (int j = 0; j < n1; ++j) {
        std::vector<std::size_t> systems;
        for (int i = 0; i < n0; ++i)
            systems.push_back(std::size_t(j * n0 + i));
        study::ResolvedStudy part = *s;
        part.grid = s->grid.subset(systems);
        auto r = std::make_shared<study::Result>(study::allocate_result(part));
        for (std::size_t k = 0; k < systems.size(); ++k) {
            r->status[k] = whole->status[systems[k]];
            for (std::size_t c = 0; c < r->scalars.size(); ++c)
                r->scalars[c].values[k] = whole->scalars[c].values[systems[k]];
        }
        figure->addBlock({r, systems, 0, 1, 1, false});
        view.figureChanged();
        QCoreApplication::processEvents();
    }
    REQUIRE(test::wait_until([&] { return !figure->needsRefresh(); }, 1000));
    const double seconds = clock.elapsed() / 1000.0;
    const auto refreshes = figure->revision() - before;
    INFO(refreshes << " refreshes in " << seconds << " s");
    CHECK(refreshes >= 1);
    CHECK(refreshes <= static_cast<std::uint64_t>(seconds / 0.040) + 2);
}

TEST_CASE("screenshots of maps, basins and a stale picture", "[plot][view][screenshot]") {
    Fixture t;
    test::save_screenshot(t.view, "plot_view_period_map");
    // The rendered widget shows the failed cell in the failed colour.
    const QImage shot = t.view.grab().toImage();
    const QPoint failed = t.at((40 + 0.5) / n0, 1.0 - (20 + 0.5) / n1);
    CHECK(shot.pixel(failed) == plot::failed_color);
    t.figure->setQuantity(QString("lambda_max"));
    t.view.figureChanged();
    REQUIRE(test::wait_until([&] { return !t.figure->needsRefresh(); }, 1000));
    test::save_screenshot(t.view, "plot_view_lyapunov_map");
    t.view.setStale(true);
    const QImage stale = test::save_screenshot(t.view, "plot_view_stale");
    CHECK(qGray(stale.pixel(t.at(0.05, 0.95))) > qGray(shot.pixel(t.at(0.05, 0.95))));
    t.view.setStale(false);

    const auto b = test::basins_study(120, 90);
    auto r = std::make_shared<study::Result>(study::allocate_result(*b));
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        const double x = -2 + 4.0 * double(sys % 120) / 119, y = -1.5 + 3.0 * double(sys / 120) / 89;
        r->status[sys] = study::SystemStatus::Ok;
        // Spiral bands as in a double well's basins, and no attractor in a small disc.
        const double angle = std::atan2(y, x) + 1.6 * std::hypot(x, y);
        test::column(*r, "label").values[sys] = x * x + y * y < 0.05      ? -1.0
                                                : std::sin(2 * angle) > 0 ? 0.0
                                                                          : 1.0;
    }
    auto basins = std::make_shared<plot::ResultFigure>(b);
    basins->setResult(r);
    t.view.setFigure(basins);
    const QImage bshot = test::save_screenshot(t.view, "plot_view_basins");
    const QPoint centre = t.at(0.5, 0.5);
    CHECK(bshot.pixel(centre) == plot::none_found_color);
}

TEST_CASE("the value under the cursor shows as a tooltip beside it", "[plot][view][tooltip]") {
    Fixture t;
    const int i = 12, j = 5;
    const QPoint cell = t.at((i + 0.5) / n0, 1.0 - (j + 0.5) / n1);
    QTest::mouseMove(&t.view, cell);
    const QPointF d = plot::FigurePainter::toData(t.view.plotArea(), t.view.range(), QPointF(cell));
    const QString expected = t.figure->describe(d.x(), d.y());
    REQUIRE_FALSE(expected.isEmpty());
    REQUIRE(test::wait_until([] { return QToolTip::isVisible(); }, 2000));
    CHECK(QToolTip::text() == expected);
    // The period the test computes for this cell, read in the tooltip.
    const double period = 1.0 + std::floor(4 * (double(i) / (n0 - 1) + double(j) / (n1 - 1)) / 2);
    CHECK(QToolTip::text().contains(QString(", period %1").arg(period)));
    // Outside the plot area the tooltip goes away.
    QTest::mouseMove(&t.view, QPoint(2, 2));
    CHECK(test::wait_until([] { return !QToolTip::isVisible(); }, 2000));
}
