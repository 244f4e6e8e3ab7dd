// Sparse sweeps drawn as short runs, and the diagram's log y axis: pixels at places computed here
// from the definition of the pixel grid and of log10, the painter's decade ticks found in the
// rendered pixels, log-space zoom in PlotView, and the "log y" box of the result view.
#include "plot_test_studies.h"
#include "ui/plot/figure_export.h"
#include "ui/plot/figure_painter.h"
#include "ui/plot/result_figure.h"
#include "ui/views/plot_view.h"
#include "ui/window/figure_result_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

using namespace bif;
using plot::PlotRange;

namespace {

// A whole result of a diagram study with y1 of system s, row r set to y(s, r).
template <class F>
std::shared_ptr<const study::Result> result_of(const study::ResolvedStudy& s, F y) {
    auto r = std::make_shared<study::Result>(study::allocate_result(s));
    for (std::size_t i = 0; i < r->system_count; ++i) {
        r->status[i] = study::SystemStatus::Ok;
        r->points.rows_filled[i] = static_cast<std::uint32_t>(r->points.rows_per_system);
        for (std::size_t row = 0; row < r->points.rows_per_system; ++row) {
            r->points.row(i, row)[0] = y(i, row);
            r->points.row(i, row)[1] = 1.0;
        }
    }
    return r;
}

int column_of(const PlotRange& v, int width, double x) {
    return static_cast<int>(std::floor((x - v.x.from) / (v.x.to - v.x.from) * width));
}

int log_row_of(const PlotRange& v, int height, double y) {
    const double top = std::log10(v.y.to), bottom = std::log10(v.y.from);
    return static_cast<int>(std::floor((top - std::log10(y)) / (top - bottom) * height));
}

// Spread in (0.1, 0.9), different for neighbouring systems.
double spread(std::size_t system) {
    return 0.1 + 0.8 * std::fmod(0.37 * double(system), 1.0);
}

void save_image(const QImage& image, const QString& name) {
    QDir().mkpath(BIFSCOPE_SCREENSHOT_DIR);
    image.save(QString(BIFSCOPE_SCREENSHOT_DIR) + "/" + name + ".png");
}

void wheel(QWidget& w, QPoint pos, int delta) {
    QWheelEvent e(pos, w.mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(&w, &e);
}

} // namespace

TEST_CASE("a sparse sweep paints each point as a run up to 3 px wide", "[plot][sparse]") {
    const int n = 64;
    const auto s = test::diagram_study(0.0, 1.0, n, 3);
    plot::ResultFigure f(s);
    f.setResult(result_of(*s, [](std::size_t sys, std::size_t row) { return spread(sys) + 0.02 * row; }));
    const PlotRange view{{-0.01, 1.01, false}, {0.0, 1.0, false}};
    const QSize size(540, 300);
    f.setViewport(view, size);
    f.refresh();
    const QImage& image = f.image();
    REQUIRE(image.size() == size);
    for (int sys = 0; sys < n; ++sys) {
        const double k = double(sys) / (n - 1);
        const int px = column_of(view, size.width(), k);
        const int py = static_cast<int>(std::floor((1.0 - spread(sys)) * size.height()));
        INFO("system " << sys << " at pixel " << px << ", " << py);
        CHECK(f.count(px, py) == 1); // the raw count stays in the point's own column
        CHECK(f.count(px - 1, py) + f.count(px + 1, py) == 0);
        CHECK(qAlpha(image.pixel(px, py)) == 255);
        if (px > 0) CHECK(image.pixel(px - 1, py) == image.pixel(px, py));
        if (px + 1 < size.width()) CHECK(image.pixel(px + 1, py) == image.pixel(px, py));
        if (px >= 2) CHECK(qAlpha(image.pixel(px - 2, py)) == 0);
        if (px + 2 < size.width()) CHECK(qAlpha(image.pixel(px + 2, py)) == 0);
        // Hovering the run's side pixel names the point it shows.
        const double side = view.x.from + (px + 1.5) / size.width() * (view.x.to - view.x.from);
        const double y = 1.0 - (py + 0.5) / size.height();
        CHECK(f.describe(side, y).contains("1 point"));
    }
    // The old look, one pixel per point: only the counted pixels. Saved beside the new one.
    QImage old = image.copy();
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x)
            if (f.count(x, y) == 0) old.setPixel(x, y, 0);
    const auto on_white = [](const QImage& i) {
        QImage w(i.size(), QImage::Format_RGB32);
        w.fill(Qt::white);
        QPainter(&w).drawImage(0, 0, i);
        return w;
    };
    save_image(on_white(old), "plot_sparse_before");
    save_image(on_white(image), "plot_sparse_after");
}

TEST_CASE("with a value per pixel column nothing is widened", "[plot][sparse]") {
    const int n = 540;
    const auto s = test::diagram_study(0.0, 1.0, n, 2);
    plot::ResultFigure f(s);
    f.setResult(result_of(*s, [](std::size_t sys, std::size_t row) { return spread(sys + row); }));
    // Exactly one pixel column per value.
    const double half = 0.5 / (n - 1);
    const PlotRange view{{-half, 1.0 + half, false}, {0.0, 1.0, false}};
    const QSize size(n, 200);
    f.setViewport(view, size);
    f.refresh();
    // The old image: a pixel is painted exactly where points fell, its colour a function of its count.
    std::map<std::uint32_t, QRgb> colour_of;
    int painted = 0;
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x) {
            const std::uint32_t c = f.count(x, y);
            const QRgb pixel = f.image().pixel(x, y);
            if ((c > 0) != (qAlpha(pixel) > 0)) FAIL("pixel " << x << ", " << y << " count " << c);
            if (c == 0) continue;
            ++painted;
            const auto [it, fresh] = colour_of.emplace(c, pixel);
            if (!fresh && it->second != pixel) FAIL("count " << c << " in two colours");
        }
    CHECK(painted > n); // every column has points
}

TEST_CASE("a log y axis puts points in the rows log10 predicts", "[plot][log]") {
    const int n = 11;
    const auto s = test::diagram_study(0.0, 1.0, n, 5);
    plot::ResultFigure f(s);
    // Row r of every system at 2 x 10^(r - 2): 0.02 ... 200.
    const auto value = [](std::size_t row) { return 2.0 * std::pow(10.0, double(row) - 2.0); };
    f.setResult(result_of(*s, [&](std::size_t, std::size_t row) { return value(row); }));
    REQUIRE(f.logYRefusal().isEmpty());
    CHECK(f.setLogY(true).isEmpty());
    CHECK(f.logY());
    const PlotRange full = f.fullRange();
    CHECK(full.y.log);
    CHECK(full.y.from > 0.0);
    CHECK(full.y.from < 0.02);
    CHECK(full.y.to > 200.0);

    const PlotRange view{{-0.0525, 1.0475, false}, {1e-3, 1e3, true}};
    const QSize size(220, 300);
    f.setViewport(view, size);
    f.refresh();
    for (int sys = 0; sys < n; ++sys) {
        const int px = column_of(view, size.width(), 0.1 * sys);
        for (std::size_t row = 0; row < 5; ++row) {
            const int py = log_row_of(view, size.height(), value(row));
            INFO("system " << sys << ", row " << row << " at " << px << ", " << py);
            CHECK(f.count(px, py) == 1);
            CHECK(f.count(px, py - 1) + f.count(px, py + 1) == 0);
        }
    }
    SECTION("the painter draws a tick at every decade and none between") {
        plot::PaintOptions options;
        const QSize figure_size(500, 420);
        const QImage picture = plot::render_figure(f, view, figure_size, options);
        const plot::FigureLayout l =
            plot::FigurePainter(f, options).layout(QRectF(QPointF(0, 0), figure_size), view, &picture);
        const int x = static_cast<int>(l.plot.left()) - 3;
        const auto darkest = [&](double value) {
            const int y =
                static_cast<int>(std::lround(plot::FigurePainter::toPixel(l.plot, view, 0, value).y()));
            int least = 255;
            for (int dy = -1; dy <= 1; ++dy)
                least = std::min(least, qGray(picture.pixel(x, y + dy)));
            return least;
        };
        for (int e = -3; e <= 3; ++e) {
            INFO("decade 1e" << e);
            CHECK(darkest(std::pow(10.0, e)) < 200); // antialiased: split over two rows
            if (e < 3) CHECK(darkest(std::pow(10.0, e + 0.5)) > 245);
        }
        save_image(picture, "plot_log_y_export");
    }
    SECTION("turning it off gives a linear axis again") {
        CHECK(f.setLogY(false).isEmpty());
        CHECK_FALSE(f.fullRange().y.log);
    }
}

TEST_CASE("a picture binned for a linear axis is not drawn into a log view", "[plot][log]") {
    // Between the view turning logarithmic and the figure's next pass, the picture on hand is the
    // linear one, whose range reaches below 0: log10 of its corner is NaN, which QPainter's raster
    // engine must never be handed (it crashed the result view under load).
    const auto s = test::diagram_study(0.0, 1.0, 11, 5);
    plot::ResultFigure f(s);
    f.setResult(
        result_of(*s, [](std::size_t, std::size_t row) { return 2.0 * std::pow(10.0, double(row) - 2.0); }));
    const QSize size(220, 300);
    f.setViewport(PlotRange{{-0.05, 1.05, false}, {-20.0, 220.0, false}}, size);
    f.refresh();
    REQUIRE_FALSE(f.image().isNull());
    REQUIRE(f.imageRange().y.from < 0.0);
    const PlotRange log_view{{-0.05, 1.05, false}, {1e-3, 1e3, true}};
    plot::PaintOptions options;
    QImage canvas(500, 420, QImage::Format_ARGB32_Premultiplied);
    canvas.fill(options.background);
    {
        QPainter painter(&canvas);
        plot::FigurePainter(f, options)
            .paint(painter, QRectF(QPointF(0, 0), QSizeF(canvas.size())), log_view);
    }
    // the plot area holds no picture: only the background (ticks and labels lie outside it)
    const plot::FigureLayout l = plot::FigurePainter(f, options)
                                     .layout(QRectF(QPointF(0, 0), QSizeF(canvas.size())), log_view, &canvas);
    const QRect inside = l.plot.toAlignedRect().adjusted(3, 3, -3, -3);
    int painted = 0;
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            painted += canvas.pixel(x, y) != options.background.rgb();
    CHECK(painted == 0);
}

TEST_CASE("a log y axis is refused for values <= 0 and for maps", "[plot][log]") {
    const auto s = test::diagram_study(0.0, 1.0, 5, 2);
    plot::ResultFigure f(s);
    f.setResult(result_of(*s, [](std::size_t sys, std::size_t) { return double(sys) - 1.0; }));
    const QString why = f.setLogY(true);
    CHECK(why.contains("y1"));
    CHECK_FALSE(f.logY());
    CHECK_FALSE(f.fullRange().y.log);

    SECTION("data with a value <= 0 turn an accepted log axis off") {
        plot::ResultFigure g(s);
        CHECK(g.setLogY(true).isEmpty()); // nothing known yet
        g.setResult(result_of(*s, [](std::size_t sys, std::size_t) { return double(sys) - 1.0; }));
        CHECK_FALSE(g.logY());
    }
    SECTION("a map") {
        plot::ResultFigure map(test::map_study(4, 3));
        CHECK_FALSE(map.setLogY(true).isEmpty());
        CHECK_FALSE(map.logY());
    }
}

TEST_CASE("PlotView zooms a log y axis about the cursor in decades", "[plot][log][view]") {
    const auto s = test::diagram_study(0.0, 1.0, 64, 5);
    auto figure = std::make_shared<plot::ResultFigure>(s);
    figure->setResult(result_of(*s, [](std::size_t sys, std::size_t row) {
        return std::pow(10.0, -2.0 + 4.0 * spread(sys * 5 + row));
    }));
    REQUIRE(figure->setLogY(true).isEmpty());
    ui::PlotView view;
    view.resize(700, 460);
    view.setFigure(figure);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    test::save_screenshot(view, "plot_log_y_view");
    const PlotRange before = view.range();
    REQUIRE(before.y.log);
    const QRectF area = view.plotArea();
    const QPoint pos = QPointF(area.left() + 0.5 * area.width(), area.top() + 0.25 * area.height()).toPoint();
    const QPointF under = plot::FigurePainter::toData(area, before, pos);
    QSignalSpy requested(&view, &ui::PlotView::viewRequested);
    wheel(view, pos, 120);
    REQUIRE(requested.wait(2000));
    const PlotRange after = view.range();
    CHECK(after.y.log);
    const double span_before = std::log10(before.y.to) - std::log10(before.y.from);
    const double span_after = std::log10(after.y.to) - std::log10(after.y.from);
    CHECK(span_after == Approx(0.85 * span_before).epsilon(1e-9));
    // The value under the cursor stays under it.
    const QPointF still = plot::FigurePainter::toData(view.plotArea(), after, pos);
    CHECK(std::log10(still.y()) == Approx(std::log10(under.y())).margin(1e-9));

    SECTION("the view follows the figure back to a linear axis, keeping the zoom") {
        figure->setLogY(false);
        view.figureChanged();
        REQUIRE(test::wait_until([&] { return !view.range().y.log; }, 2000));
        CHECK(view.range().y.from == Approx(after.y.from));
        CHECK(view.range().y.to == Approx(after.y.to));
    }
}

TEST_CASE("the result view's log y box toggles the diagram's axis", "[plot][log][window]") {
    QWidget holder;
    const auto s = test::diagram_study(0.0, 1.0, 64, 4);
    ui::FigureResultView result(s, &holder);
    result.setResult(result_of(*s, [](std::size_t sys, std::size_t row) {
        return std::pow(10.0, -1.0 + 3.0 * spread(sys * 4 + row));
    }));
    auto* box = result.widget()->findChild<QCheckBox*>();
    REQUIRE(box);
    CHECK(box->text() == "log y");
    CHECK(box->isEnabled());
    holder.resize(760, 500);
    result.widget()->resize(760, 500);
    holder.show();
    REQUIRE(QTest::qWaitForWindowExposed(&holder));
    box->setChecked(true);
    CHECK(result.figure()->logY());
    REQUIRE(test::wait_until([&] { return result.plotView().range().y.log; }, 2000));
    // the picture follows with the figure's next pass (until then the linear one is not drawn)
    REQUIRE(test::wait_until([&] { return result.figure()->imageRange().y.log; }, 5000));
    test::save_screenshot(*result.widget(), "plot_log_y_result_view");
    box->setChecked(false);
    CHECK_FALSE(result.figure()->logY());
    REQUIRE(test::wait_until([&] { return !result.plotView().range().y.log; }, 2000));

    SECTION("refused where a value is <= 0: the box stays off") {
        result.setResult(result_of(*s, [](std::size_t sys, std::size_t) { return double(sys) - 3.0; }));
        QSignalSpy said(&result, &ui::ResultView::hoverText);
        box->setChecked(true);
        CHECK_FALSE(box->isChecked());
        CHECK_FALSE(result.figure()->logY());
        REQUIRE(said.count() == 1);
        CHECK(said.at(0).at(0).toString().contains("<= 0"));
    }
    SECTION("a map has no log y box to use") {
        ui::FigureResultView map(test::map_study(4, 3), &holder);
        auto* map_box = map.widget()->findChild<QCheckBox*>();
        REQUIRE(map_box);
        CHECK_FALSE(map_box->isEnabled());
    }
}
