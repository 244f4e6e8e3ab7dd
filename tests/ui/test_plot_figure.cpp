// ResultFigure, colour maps, ticks and zoomed_study against values the tests compute themselves.
#include "plot_test_studies.h"
#include "ui/plot/axis_ticks.h"
#include "ui/plot/color_map.h"
#include "ui/plot/result_figure.h"
#include "ui/plot/zoomed_study.h"

#include <QLocale>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;
using plot::PlotRange;

namespace {

// The pixel a point falls in for a viewport, computed here from the definition of a pixel grid.
QPoint pixel_of(const PlotRange& v, QSize size, double x, double y) {
    return {static_cast<int>(std::floor((x - v.x.from) / (v.x.to - v.x.from) * size.width())),
            static_cast<int>(std::floor((v.y.to - y) / (v.y.to - v.y.from) * size.height()))};
}

// Block of systems `systems` of a study, each with all rows of y1 set to y(system).
template <class F>
jobs::ResultBlock block_of(const study::ResolvedStudy& s, std::vector<std::size_t> systems, F y,
                           int stride = 1) {
    study::ResolvedStudy part = s;
    part.grid = s.grid.subset(systems);
    part.study.bifurcation.continuation = false;
    auto r = std::make_shared<study::Result>(study::allocate_result(part));
    for (std::size_t i = 0; i < systems.size(); ++i) {
        r->status[i] = study::SystemStatus::Ok;
        if (r->points.rows_per_system) {
            r->points.rows_filled[i] = static_cast<std::uint32_t>(r->points.rows_per_system);
            for (std::size_t row = 0; row < r->points.rows_per_system; ++row)
                r->points.row(i, row)[0] = y(systems[i], row);
        }
    }
    jobs::ResultBlock b;
    b.result = r;
    b.systems = std::move(systems);
    b.stride = stride;
    return b;
}

double luminance(QRgb c) {
    return 0.2126 * qRed(c) + 0.7152 * qGreen(c) + 0.0722 * qBlue(c);
}

} // namespace

TEST_CASE("density pixels count the points that fall in them", "[plot][figure]") {
    const auto s = test::diagram_study(0.0, 1.0, 11, 4);
    plot::ResultFigure f(s);
    REQUIRE(f.kind() == plot::FigureKind::Diagram);
    REQUIRE(f.quantities() == QStringList{"y1", "y2"});
    // System k: rows 0 and 1 at y = 0.5, rows 2 and 3 at y = k (k = 0.1 * system).
    auto b = block_of(*s, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
                      [](std::size_t sys, std::size_t row) { return row < 2 ? 0.5 : 0.1 * double(sys); });
    f.addBlock(b);
    // Points sit a quarter pixel inside their pixels, away from the edges that rounding could move.
    const PlotRange view{{-0.0525, 1.0475, false}, {0.0025, 1.0025, false}};
    const QSize size(110, 100);
    f.setViewport(view, size);
    f.refresh();
    REQUIRE(f.image().size() == size);
    for (int sys = 0; sys <= 10; ++sys) {
        const double k = 0.1 * sys;
        const QPoint half = pixel_of(view, size, k, 0.5);
        const QPoint own = pixel_of(view, size, k, k);
        if (sys == 5) {
            CHECK(f.count(half.x(), half.y()) == 4);
        } else {
            CHECK(f.count(half.x(), half.y()) == 2);
            if (own.y() >= 0 && own.y() < size.height()) CHECK(f.count(own.x(), own.y()) == 2);
        }
        CHECK(f.count(half.x() + 2, half.y()) == 0);
        CHECK(qAlpha(f.image().pixel(half)) == 255);
        CHECK(qAlpha(f.image().pixel(half.x() + 2, half.y())) == 0);
    }
    // The densest pixel takes the key's top colour.
    const QPoint densest = pixel_of(view, size, 0.5, 0.5);
    CHECK(f.image().pixel(densest) == f.colorKey().ramp.back());
    CHECK(f.describe(0.5, 0.5).contains("4 points"));

    SECTION("a new y range rebins the kept points") {
        const PlotRange zoomed{{-0.0525, 1.0475, false}, {0.4525, 0.5525, false}};
        f.setViewport(zoomed, size);
        f.refresh();
        const QPoint p = pixel_of(zoomed, size, 0.3, 0.5);
        CHECK(f.count(p.x(), p.y()) == 2);
        CHECK(f.count(p.x(), p.y() + 3) == 0);
    }
    SECTION("the second quantity has its own column") {
        f.setQuantity(QString("y2"));
        f.setViewport(view, size);
        f.refresh();
        const QPoint p = pixel_of(view, size, 0.3, 0.5);
        CHECK(f.count(p.x(), p.y()) == 0);
    }
}

TEST_CASE("a provisional block is superseded by the same systems again", "[plot][figure]") {
    const auto s = test::diagram_study(0.0, 1.0, 5, 2);
    plot::ResultFigure f(s);
    const PlotRange view{{-0.13, 1.12, false}, {0.01, 1.01, false}};
    const QSize size(50, 40);
    f.setViewport(view, size);
    auto provisional = block_of(*s, {0, 2, 4}, [](std::size_t, std::size_t) { return 0.2; });
    provisional.provisional = true;
    f.addBlock(provisional);
    f.refresh();
    const QPoint low = pixel_of(view, size, 0.5, 0.2), high = pixel_of(view, size, 0.5, 0.8);
    CHECK(f.count(low.x(), low.y()) == 2);
    f.addBlock(block_of(*s, {0, 2, 4}, [](std::size_t, std::size_t) { return 0.8; }));
    f.refresh();
    CHECK(f.count(low.x(), low.y()) == 0);
    CHECK(f.count(high.x(), high.y()) == 2);
    CHECK(f.systemsReceived() == 3);
}

TEST_CASE("map cells take the colour of their value", "[plot][figure]") {
    const int n0 = 6, n1 = 4;
    const auto s = test::map_study(n0, n1);
    auto r = std::make_shared<study::Result>(study::allocate_result(*s));
    auto& period = test::column(*r, "period").values;
    auto& lambda = test::column(*r, "lambda_max").values;
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        const std::size_t i = sys % n0, j = sys / n0;
        r->status[sys] = study::SystemStatus::Ok;
        period[sys] = static_cast<double>((i + j) % 4); // 0: none found
        lambda[sys] = 0.1 * (static_cast<double>(i) - 2.0);
    }
    const std::size_t failed = 1 * n0 + 3;
    r->status[failed] = study::SystemStatus::NonFinite;
    plot::ResultFigure f(s);
    f.setResult(r);
    REQUIRE(f.quantities() == QStringList{"period", "lambda_max", "status"});
    f.refresh();
    const QImage& img = f.image();
    REQUIRE(img.size() == QSize(n0, n1));
    const auto cell = [&](std::size_t i, std::size_t j) { return img.pixel(int(i), n1 - 1 - int(j)); };
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        const std::size_t i = sys % n0, j = sys / n0;
        const int p = static_cast<int>(period[sys]);
        const QRgb expected = sys == failed ? plot::failed_color
                              : p == 0      ? plot::none_found_color
                                            : plot::categorical_color(p - 1);
        CHECK(cell(i, j) == expected);
    }
    CHECK(f.describe(0.1 + 0.3 * 3 / 5, 0.1 + 0.4 / 3).contains("non_finite"));
    const QString hover = f.describe(0.1 + 0.3 * 2 / 5, 0.1 + 0.4 * 2 / 3); // i = 2, j = 2: period 0
    CHECK(hover.contains("no period found"));
    CHECK(f.describe(0.1 + 0.3 * 4 / 5, 0.1 + 0.4 * 1 / 3).contains("period 1")); // i = 4, j = 1

    // Lyapunov: a diverging map centred on zero, so +-max|lambda| are its ends and 0 its middle.
    f.setQuantity(QString("lambda_max"));
    f.refresh();
    const plot::ColorMap diverging(plot::ColorMapKind::Diverging);
    double most = 0.0;
    for (std::size_t sys = 0; sys < r->system_count; ++sys)
        if (sys != failed) most = std::max(most, std::abs(lambda[sys]));
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        if (sys == failed) continue;
        CHECK(f.image().pixel(int(sys % n0), n1 - 1 - int(sys / n0)) ==
              diverging.at((lambda[sys] + most) / (2 * most)));
    }
    CHECK(f.image().pixel(3, n1 - 1 - 1) == plot::failed_color);
    CHECK(f.colorKey().from == Approx(-most));
    CHECK(f.colorKey().to == Approx(most));
}

TEST_CASE("coarse passes fill their cells until finer passes refine them", "[plot][figure]") {
    const int n = 8;
    const auto s = test::map_study(n, n);
    const auto value = [](std::size_t sys) { return 1.0 + static_cast<double>(sys % 3); }; // periods 1..3
    const auto pass = [&](int stride, bool first) {
        std::vector<std::size_t> systems;
        for (int j = 0; j < n; j += stride)
            for (int i = 0; i < n; i += stride)
                if (first || i % (2 * stride) != 0 || j % (2 * stride) != 0) systems.push_back(j * n + i);
        study::ResolvedStudy part = *s;
        part.grid = s->grid.subset(systems);
        auto r = std::make_shared<study::Result>(study::allocate_result(part));
        for (std::size_t k = 0; k < systems.size(); ++k) {
            r->status[k] = study::SystemStatus::Ok;
            test::column(*r, "period").values[k] = value(systems[k]);
        }
        jobs::ResultBlock b;
        b.result = r;
        b.systems = systems;
        b.stride = stride;
        return b;
    };
    plot::ResultFigure f(s);
    const auto colour = [&](int i, int j) { return f.image().pixel(i, n - 1 - j); };
    const auto expected = [&](std::size_t sys) { return plot::categorical_color(int(value(sys)) - 1); };
    f.addBlock(pass(4, true));
    f.refresh();
    CHECK(colour(3, 3) == expected(0));
    CHECK(colour(5, 2) == expected(4));
    CHECK(colour(7, 7) == expected(4 * n + 4));
    f.addBlock(pass(2, false));
    f.refresh();
    CHECK(colour(3, 3) == expected(2 * n + 2));
    CHECK(colour(1, 1) == expected(0));
    f.addBlock(pass(1, false));
    f.refresh();
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            CHECK(colour(i, j) == expected(j * n + i));
}

TEST_CASE("colour maps match the published end points and grow in lightness", "[plot][colormap]") {
    const plot::ColorMap viridis(plot::ColorMapKind::Viridis), magma(plot::ColorMapKind::Magma);
    // matplotlib's _viridis_data[0], [255] and [128] (0.127568, 0.566949, 0.550556) x 255.
    CHECK(viridis.at(0.0) == qRgb(68, 1, 84));
    CHECK(viridis.at(1.0) == qRgb(253, 231, 37));
    const QRgb mid = viridis.at(0.5);
    CHECK(std::abs(qRed(mid) - 33) <= 3);
    CHECK(std::abs(qGreen(mid) - 145) <= 3);
    CHECK(std::abs(qBlue(mid) - 140) <= 3);
    CHECK(magma.at(0.0) == qRgb(0, 0, 4));
    CHECK(magma.at(1.0) == qRgb(252, 253, 191));
    for (int i = 1; i <= 100; ++i) {
        CHECK(luminance(viridis.at(i / 100.0)) >= luminance(viridis.at((i - 1) / 100.0)) - 0.5);
        CHECK(luminance(magma.at(i / 100.0)) >= luminance(magma.at((i - 1) / 100.0)) - 0.5);
    }
    // The diverging map is light in the middle and darker towards both ends.
    const plot::ColorMap diverging(plot::ColorMapKind::Diverging);
    CHECK(luminance(diverging.at(0.5)) > luminance(diverging.at(0.0)) + 60);
    CHECK(luminance(diverging.at(0.5)) > luminance(diverging.at(1.0)) + 60);
    // Categorical colours stay apart from both a white and a black background.
    for (int i = 0; i < plot::categorical_color_count(); ++i) {
        CHECK(luminance(plot::categorical_color(i)) > 40);
        CHECK(luminance(plot::categorical_color(i)) < 235);
    }
}

TEST_CASE("axis ticks are nice numbers inside the range", "[plot][ticks]") {
    struct Case {
        double from, to;
        int max;
    };
    for (const Case c : {Case{0.2, 0.3, 5}, Case{-1.37, 1.41, 8}, Case{0, 1e6, 6}, Case{3.1, 3.1004, 4}}) {
        const auto ticks = plot::linear_ticks(c.from, c.to, c.max);
        INFO(c.from << " .. " << c.to);
        REQUIRE(ticks.size() >= 2);
        CHECK(int(ticks.size()) <= c.max + 1);
        const double step = ticks[1].value - ticks[0].value;
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        CHECK((std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 ||
               std::abs(mantissa - 5) < 1e-6));
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            CHECK(ticks[i].value >= c.from - 1e-9 * step);
            CHECK(ticks[i].value <= c.to + 1e-9 * step);
            CHECK(std::abs(std::remainder(ticks[i].value, step)) < 1e-6 * step);
            // Labels read back as the tick's value and tell neighbours apart.
            CHECK(ticks[i].label.toDouble() == Approx(ticks[i].value).margin(1e-9 * step));
            if (i) CHECK(ticks[i].label != ticks[i - 1].label);
        }
    }
    const auto decades = plot::log_ticks(1e-3, 1e2, 10);
    REQUIRE(decades.size() == 6);
    for (std::size_t i = 0; i < decades.size(); ++i)
        CHECK(decades[i].value == Approx(std::pow(10.0, int(i) - 3)));
    CHECK(decades[0].label == "0.001");
    const auto sparse = plot::log_ticks(1e-8, 1e8, 5);
    CHECK(sparse.size() <= 6);
    for (const auto& t : sparse)
        CHECK(std::abs(std::log10(t.value) - std::round(std::log10(t.value))) < 1e-9);
}

TEST_CASE("zoomed_study sweeps the view's range at its resolution", "[plot][zoom]") {
    study::Study s;
    s.analysis = study::AnalysisKind::Bifurcation;
    s.sweep = {{study::SweepTarget::Parameter, "k", 0.3, 0.2, 1200, study::SweepScale::Linear}};
    const PlotRange view{{0.22, 0.25, false}, {-1, 1, false}};
    const study::Study z = plot::zoomed_study(s, view, QSize(800, 500));
    REQUIRE(z.sweep.size() == 1);
    CHECK(z.sweep[0].from == 0.25); // a descending sweep stays descending
    CHECK(z.sweep[0].to == 0.22);
    CHECK(z.sweep[0].count == 800);

    study::Study m;
    m.analysis = study::AnalysisKind::ParameterMap;
    m.sweep = {{study::SweepTarget::Parameter, "k", 1e-3, 1, 256, study::SweepScale::Log},
               {study::SweepTarget::Parameter, "b", 0.1, 0.5, 256, study::SweepScale::Linear}};
    const PlotRange mv{{1e-2, 1e-1, true}, {0.2, 0.3, false}};
    const study::Study zm = plot::zoomed_study(m, mv, QSize(10000, 300));
    CHECK(zm.sweep[0].from == 1e-2);
    CHECK(zm.sweep[0].to == 1e-1);
    CHECK(zm.sweep[0].scale == study::SweepScale::Log);
    CHECK(zm.sweep[0].count == plot::max_zoom_count);
    CHECK(zm.sweep[1].from == 0.2);
    CHECK(zm.sweep[1].to == 0.3);
    CHECK(zm.sweep[1].count == 300);
}

TEST_CASE("zoomed ranges are short decimals within half a pixel", "[plot][zoom]") {
    // The zoom over B: bounds as a wheel left them, on a view 700 pixels wide.
    study::Study s;
    s.analysis = study::AnalysisKind::Bifurcation;
    s.sweep = {{study::SweepTarget::Parameter, "B", 0.0, 20.0, 101, study::SweepScale::Linear}};
    const PlotRange view{{5.770706494533947, 10.069581494533947, false}, {-1, 1, false}};
    const study::Study z = plot::zoomed_study(s, view, QSize(700, 500));
    const double pixel = (view.x.to - view.x.from) / 700;
    CHECK(QString::number(z.sweep[0].from, 'g', QLocale::FloatingPointShortest) == "5.771");
    CHECK(QString::number(z.sweep[0].to, 'g', QLocale::FloatingPointShortest) == "10.07");
    CHECK(std::abs(z.sweep[0].from - view.x.from) <= pixel / 2);
    CHECK(std::abs(z.sweep[0].to - view.x.to) <= pixel / 2);

    // A log axis: rounded to its pixel's width at each end.
    study::Study m = s;
    m.sweep[0].scale = study::SweepScale::Log;
    const PlotRange log_view{{0.0123456789, 0.987654321, true}, {-1, 1, false}};
    const study::Study zl = plot::zoomed_study(m, log_view, QSize(400, 300));
    CHECK(QString::number(zl.sweep[0].from, 'g', QLocale::FloatingPointShortest) == "0.0123");
    CHECK(QString::number(zl.sweep[0].to, 'g', QLocale::FloatingPointShortest) == "0.99");
}
