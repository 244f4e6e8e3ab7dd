// Big results while a study runs: blocks repaint only their cells, whole recolours and rebins run
// across slices into a back image (the old picture stays meanwhile), and each way ends with the
// picture an all-at-once refresh of the same data gives. Also the legend's overflow line and the
// hover text of a two-way continuation diagram.
#include "plot_test_studies.h"
#include "ui/plot/result_figure.h"
#include "ui/views/plot_view.h"

#include <QTest>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>

using namespace bif;
using plot::PlotRange;

namespace {

// A block of map systems `systems` with lambda_max = lambda(system) and period = period(system).
template <class L, class P>
jobs::ResultBlock map_block(const study::ResolvedStudy& s, std::vector<std::size_t> systems, L lambda,
                            P period) {
    study::ResolvedStudy part = s;
    part.grid = s.grid.subset(systems);
    auto r = std::make_shared<study::Result>(study::allocate_result(part));
    for (std::size_t k = 0; k < systems.size(); ++k) {
        r->status[k] = study::SystemStatus::Ok;
        test::column(*r, "lambda_max").values[k] = lambda(systems[k]);
        test::column(*r, "period").values[k] = period(systems[k]);
    }
    jobs::ResultBlock b;
    b.result = r;
    b.systems = std::move(systems);
    return b;
}

std::vector<std::size_t> rows_of(int n0, int from, int to) { // grid rows [from, to)
    std::vector<std::size_t> systems;
    for (int j = from; j < to; ++j)
        for (int i = 0; i < n0; ++i)
            systems.push_back(std::size_t(j) * n0 + i);
    return systems;
}

// Refreshes with no time to spare: one row (or one chunk of systems) per call. Returns the calls.
int slice_by_slice(plot::ResultFigure& f, const std::function<void(int)>& between = {}) {
    int calls = 1;
    while (!f.refreshSlice(std::chrono::nanoseconds(0))) {
        if (between) between(calls);
        ++calls;
    }
    return calls;
}

const auto lambda_of = [](std::size_t sys) { return 0.4 * std::sin(0.37 * double(sys)); };
const auto period_of = [](std::size_t sys) { return double(1 + sys % 5); };

} // namespace

TEST_CASE("a block inside the painted range repaints only its rows", "[plot][progressive]") {
    const int n0 = 40, n1 = 30;
    const auto s = test::map_study(n0, n1);
    plot::ResultFigure f(s);
    REQUIRE(f.setQuantity(QString("lambda_max")));
    // Rows 0..19 set the range: |lambda| up to 0.4; row 20..29 stay inside it.
    f.addBlock(map_block(*s, rows_of(n0, 0, 20), lambda_of, period_of));
    f.refresh();
    f.addBlock(map_block(
        *s, rows_of(n0, 20, 26), [](std::size_t sys) { return 0.5 * lambda_of(sys); }, period_of));
    // Six new rows: six slices of one row each, not thirty.
    CHECK(slice_by_slice(f) == 6);

    plot::ResultFigure whole(s);
    whole.setQuantity(QString("lambda_max"));
    whole.addBlock(map_block(*s, rows_of(n0, 0, 20), lambda_of, period_of));
    whole.addBlock(map_block(
        *s, rows_of(n0, 20, 26), [](std::size_t sys) { return 0.5 * lambda_of(sys); }, period_of));
    whole.refresh();
    CHECK(f.image() == whole.image());
    CHECK(f.colorKey().to == Approx(whole.colorKey().to));

    SECTION("a value beyond the painted range recolours the whole map with the wider range") {
        f.addBlock(map_block(
            *s, rows_of(n0, 26, 30), [](std::size_t) { return -1.5; }, period_of));
        CHECK(slice_by_slice(f) > n1); // a gather, then every row
        CHECK(f.colorKey().from == Approx(-1.5));
        CHECK(f.colorKey().to == Approx(1.5));
        // Zero is the middle of the diverging map; |lambda| <= 0.4 lies in its middle 27 %.
        const plot::ColorMap diverging(plot::ColorMapKind::Diverging);
        const std::size_t sys = 7;
        CHECK(f.image().pixel(int(sys % n0), n1 - 1 - int(sys / n0)) ==
              diverging.at((lambda_of(sys) + 1.5) / 3.0));
    }
}

TEST_CASE("a quantity switch keeps the old picture until the new one is whole", "[plot][progressive]") {
    const int n0 = 200, n1 = 150;
    const auto s = test::map_study(n0, n1);
    plot::ResultFigure f(s);
    const auto all = rows_of(n0, 0, n1);
    f.addBlock(map_block(*s, all, lambda_of, period_of));
    f.refresh();
    const QImage periods = f.image();
    const auto revision = f.revision();
    f.setQuantity(QString("lambda_max"));
    const int calls = slice_by_slice(f, [&](int) {
        CHECK(f.image() == periods);
        CHECK(f.revision() == revision);
    });
    CHECK(calls > n1);
    plot::ResultFigure reference(s);
    reference.setQuantity(QString("lambda_max"));
    reference.addBlock(map_block(*s, all, lambda_of, period_of));
    reference.refresh();
    CHECK(f.image() == reference.image());
    CHECK(f.image() != periods);
}

TEST_CASE("a sliced rebin counts what an all-at-once rebin counts, blocks arriving meanwhile",
          "[plot][progressive]") {
    const int count = 20000;
    const auto s = test::diagram_study(0.0, 1.0, count, 3);
    // Rows at y = k, k / 2 and 1 - k for system k in [0, 1].
    const auto y = [&](std::size_t sys, std::size_t row) {
        const double k = double(sys) / (count - 1);
        return row == 0 ? k : row == 1 ? k / 2 : 1 - k;
    };
    const auto block = [&](std::size_t from, std::size_t to) {
        std::vector<std::size_t> systems;
        for (std::size_t i = from; i < to; ++i)
            systems.push_back(i);
        study::ResolvedStudy part = *s;
        part.grid = s->grid.subset(systems);
        auto r = std::make_shared<study::Result>(study::allocate_result(part));
        for (std::size_t i = 0; i < systems.size(); ++i) {
            r->status[i] = study::SystemStatus::Ok;
            r->points.rows_filled[i] = 3;
            for (std::size_t row = 0; row < 3; ++row)
                r->points.row(i, row)[0] = y(systems[i], row);
        }
        jobs::ResultBlock b;
        b.result = r;
        b.systems = std::move(systems);
        return b;
    };
    const QSize size(300, 200);
    const PlotRange full{{-0.01, 1.01, false}, {-0.01, 1.01, false}};
    const PlotRange zoomed{{0.2, 0.7, false}, {0.1, 0.6, false}};
    plot::ResultFigure f(s);
    f.setViewport(full, size);
    f.addBlock(block(0, 12000));
    f.refresh();
    const QImage before = f.image();
    f.setViewport(zoomed, size);
    f.refreshSlice(std::chrono::nanoseconds(0)); // the rebin starts: the first 4096 systems binned
    CHECK(f.imageRange() == full);
    f.addBlock(block(12000, count)); // beyond the rebin's cursor and behind it
    f.addBlock(block(12000, 12000)); // an empty block changes nothing
    CHECK(slice_by_slice(f, [&](int) { CHECK(f.image() == before); }) > 2);
    CHECK(f.imageRange() == zoomed);

    plot::ResultFigure reference(s);
    reference.setViewport(zoomed, size);
    reference.addBlock(block(0, count));
    reference.refresh();
    std::uint64_t total = 0;
    for (int py = 0; py < size.height(); ++py)
        for (int px = 0; px < size.width(); ++px) {
            total += f.count(px, py);
            if (f.count(px, py) != reference.count(px, py)) FAIL("pixel " << px << ", " << py);
        }
    // Every point inside the zoomed window, counted here from the rows' formulas.
    std::uint64_t inside = 0;
    for (std::size_t sys = 0; sys < std::size_t(count); ++sys) {
        const double k = double(sys) / (count - 1);
        const int px = int(std::floor((k - 0.2) / 0.5 * size.width()));
        if (px < 0 || px >= size.width()) continue;
        for (std::size_t row = 0; row < 3; ++row) {
            const int py = int(std::floor((0.6 - y(sys, row)) / 0.5 * size.height()));
            inside += py >= 0 && py < size.height();
        }
    }
    CHECK(total == inside);
    CHECK(f.image() == reference.image());
}

TEST_CASE("a continuation diagram describes both sweeps", "[plot][progressive][describe]") {
    const int n = 11;
    const auto s = test::diagram_study(0.0, 1.0, n, 2, true);
    REQUIRE(s->system_count() == std::size_t(2 * n));
    // Up sweep (systems 0..n-1) at y = 0.25; down sweep (system n + i at grid point n - 1 - i) at 0.75,
    // except that the down system through k = 0.3 failed.
    std::vector<std::size_t> systems(2 * n);
    for (std::size_t i = 0; i < systems.size(); ++i)
        systems[i] = i;
    study::ResolvedStudy part = *s;
    auto r = std::make_shared<study::Result>(study::allocate_result(part));
    REQUIRE(r->system_count == std::size_t(2 * n));
    const std::size_t failed_down = 2 * n - 1 - 3;
    for (std::size_t i = 0; i < systems.size(); ++i) {
        r->status[i] = i == failed_down ? study::SystemStatus::NonFinite : study::SystemStatus::Ok;
        r->points.rows_filled[i] = i == failed_down ? 0 : 2;
        for (std::size_t row = 0; row < 2; ++row)
            r->points.row(i, row)[0] = i < std::size_t(n) ? 0.25 : 0.75;
    }
    plot::ResultFigure f(s);
    f.setResult(r);
    f.setViewport({{-0.05, 1.05, false}, {0.0, 1.0, false}}, QSize(110, 100));
    f.refresh();
    const QString up = f.describe(0.5, 0.25);
    INFO(up.toStdString());
    CHECK(up.contains("up: 2 points"));
    CHECK(up.contains("down: 0 points"));
    const QString down = f.describe(0.5, 0.75);
    INFO(down.toStdString());
    CHECK(down.contains("up: 0 points"));
    CHECK(down.contains("down: 2 points"));
    const QString failed = f.describe(0.3, 0.25);
    INFO(failed.toStdString());
    CHECK(failed.contains("up: 2 points"));
    CHECK(failed.contains("down: non_finite"));
}

TEST_CASE("a legend with more periods than fit ends with what is left out", "[plot][legend][screenshot]") {
    const int n0 = 33, n1 = 20;
    const auto s = test::map_study(n0, n1);
    auto r = std::make_shared<study::Result>(study::allocate_result(*s));
    for (std::size_t sys = 0; sys < r->system_count; ++sys) {
        r->status[sys] = study::SystemStatus::Ok;
        test::column(*r, "period").values[sys] = double(sys % n0); // 0 (none found) .. 32
    }
    r->status[5] = study::SystemStatus::NonFinite;
    auto f = std::make_shared<plot::ResultFigure>(s);
    f->setResult(r);
    f->refresh();
    const plot::ColorKey key = f->colorKey();
    // none found, periods 1..32, failed.
    REQUIRE(key.entries.size() == 34);
    CHECK(plot::legend_overflow(key, 34).isEmpty());
    CHECK(plot::legend_overflow(key, 19) == QString::fromUtf8("… 15 more (periods 19–32, failed)"));
    CHECK(plot::legend_overflow(key, 1) == QString::fromUtf8("… 33 more (periods 1–32, failed)"));

    ui::PlotView view;
    view.resize(640, 360);
    view.setFigure(f);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    const QImage shot = test::save_screenshot(view, "plot_legend_overflow");
    REQUIRE_FALSE(shot.isNull());
    // The last swatch drawn is above the plot's bottom, and the overflow line sits below it.
    const QRectF area = view.plotArea();
    bool swatch_below = false;
    for (int y = int(area.bottom()) + 2; y < shot.height(); ++y)
        swatch_below |=
            shot.pixelColor(int(area.right()) + 14, y) == QColor::fromRgba(plot::categorical_color(0));
    CHECK_FALSE(swatch_below);
}
