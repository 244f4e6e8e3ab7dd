// A map figure whose cells stay on a device (plot::KeptMapPicture, engine/study/kept_map.h), with a
// stand-in device that keeps a host result's cells (tests/jobs/host_kept_map.h). Held against an
// ordinary figure of the same result: its image is the sample lattice's cells coloured as the whole
// map's colours are (from the kept map's summary), the hover text reads the cell under the cursor
// back from the kept map, nothing downloads the whole map until a CSV export does, and that export
// holds the kept floats. The GPU's own kept maps are drawn in test_gl_interop.
#include "engine/study/kept_map.h"
#include "engine/study/result_csv.h"
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "plot_test_studies.h"
#include "tests/jobs/host_kept_map.h"
#include "ui/plot/figure_export.h"
#include "ui/plot/result_figure.h"
#include "ui/views/plot_view.h"
#include "ui/window/result_tab.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

using namespace bif;
using ui::PlotView;
using ui::ResultTab;

namespace {

constexpr int nx = 1100, ny = 700; // a sample step of 3: 367 x 234 cells

// Periods in bands, lambda_max a smooth wave, a disc of failed systems: a map with structure at
// every scale of the sample.
std::shared_ptr<study::Result> made_up_result(const study::ResolvedStudy& s) {
    auto r = std::make_shared<study::Result>(study::allocate_result(s));
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const std::size_t k = std::size_t(j) * nx + i;
            const double di = i - 800.0, dj = j - 300.0;
            r->status[k] =
                di * di + dj * dj < 90.0 * 90.0 ? study::SystemStatus::NonFinite : study::SystemStatus::Ok;
            test::column(*r, "period").values[k] = 1 + (i / 97 + j / 61) % 6;
            test::column(*r, "lambda_max").values[k] = 0.3 * std::sin(i * 0.013) * std::cos(j * 0.021) - 0.05;
        }
    r->info.complete = true;
    return r;
}

bool near(QRgb x, QRgb y) {
    return std::abs(qRed(x) - qRed(y)) <= 1 && std::abs(qGreen(x) - qGreen(y)) <= 1 &&
           std::abs(qBlue(x) - qBlue(y)) <= 1 && std::abs(qAlpha(x) - qAlpha(y)) <= 1;
}

} // namespace

TEST_CASE("a kept map's figure shows its sample as the whole map is coloured", "[plot][kept]") {
    const auto s = test::map_study(nx, ny);
    const auto host = made_up_result(*s);
    const std::vector<std::string> columns{"period", "lambda_max"};
    auto device = std::make_shared<test::HostKeptMap>(*host, nx, ny, columns);
    auto kept = std::make_shared<study::Result>();
    kept->analysis = host->analysis;
    kept->system_count = host->system_count;
    kept->info = host->info;
    kept->kept = device;

    // the job's preview: the lattice's systems as a host block
    const std::size_t step = study::kept_sample_step(nx, ny);
    REQUIRE(step == 3);
    jobs::ResultBlock preview;
    preview.systems = study::kept_sample_systems(nx, ny, step);
    study::ResolvedStudy part = *s;
    part.grid = s->grid.subset(preview.systems);
    auto rows = std::make_shared<study::Result>(study::allocate_result(part));
    for (std::size_t row = 0; row < preview.systems.size(); ++row) {
        rows->status[row] = host->status[preview.systems[row]];
        for (const auto& c : columns)
            test::column(*rows, c).values[row] = host->scalar(c)->values[preview.systems[row]];
    }
    preview.result = rows;
    preview.stride = int(step);
    preview.provisional = true;

    plot::ResultFigure whole(s);
    whole.setResult(host);
    plot::ResultFigure figure(s, true);
    REQUIRE(figure.keptOnDevice());
    CHECK_FALSE(figure.keptMap());
    figure.addBlock(preview);
    CHECK(figure.systemsReceived() == preview.systems.size());
    figure.refresh();
    CHECK(figure.image().size() == QSize(367, 234));
    CHECK(figure.imageRange() == whole.fullRange());
    // before the kept map comes, a lattice cell reads its preview value; the others wait for it
    const auto at = [&](int i, int j) {
        const auto& k = s->grid.values(0);
        const auto& b = s->grid.values(1);
        return std::pair{k[i], b[j]};
    };
    const auto [x3, y3] = at(300, 600);
    const auto [x1, y1] = at(301, 600);
    CHECK(figure.describe(x3, y3) == whole.describe(x3, y3));
    CHECK(figure.describe(x1, y1).endsWith("not computed yet"));

    figure.setResult(kept);
    REQUIRE(figure.keptMap() == device.get());
    CHECK(figure.systemsReceived() == host->system_count);
    for (const QString quantity : {"period", "lambda_max", "status"}) {
        INFO(quantity.toStdString());
        REQUIRE(whole.setQuantity(quantity));
        REQUIRE(figure.setQuantity(quantity));
        whole.refresh();
        figure.refresh();
        CHECK(figure.colorKey().from == Approx(whole.colorKey().from).epsilon(1e-6));
        CHECK(figure.colorKey().to == Approx(whole.colorKey().to).epsilon(1e-6));
        CHECK(figure.colorKey().entries.size() == whole.colorKey().entries.size());
        // every sample pixel as the whole map's cell it stands for (y grows upwards in both)
        const QImage& small = figure.image();
        const QImage& big = whole.image();
        int differ = 0;
        for (int b = 0; b < small.height(); ++b)
            for (int a = 0; a < small.width(); ++a)
                differ += !near(small.pixel(a, small.height() - 1 - b),
                                big.pixel(a * int(step), big.height() - 1 - b * int(step)));
        CHECK(differ == 0);
        // the cell under the cursor, off the lattice too, is the kept map's own
        for (const auto& [i, j] : {std::pair{301, 600}, {799, 301}, {1099, 0}, {0, 699}, {512, 345}}) {
            const auto [x, y] = at(i, j);
            CHECK(figure.describe(x, y) == whole.describe(x, y));
        }
    }
    CHECK(figure.keptColumn() == std::size_t{0}); // the status view: the statuses kept with column 0
    CHECK(device->cells_read > 0);
    CHECK(device->downloads == 0);

    figure.setQuantity(QStringLiteral("period"));
    PlotView view;
    view.resize(900, 620);
    view.setFigure(std::make_shared<plot::ResultFigure>(std::move(figure)));
    view.show();
    REQUIRE(test::wait_until([&] { return !view.figure()->needsRefresh(); }, 5000));
    test::save_screenshot(view, "plot-kept-map-sample");
}

// A kept figure that a view or an export shows at more pixels than its preview lattice: the sample
// as fine as those pixels (every cell at the end), so that a PNG of the kept map is the PNG of the
// ordinary figure of the same result, pixel for pixel.
TEST_CASE("a kept map's view and exports are sampled as finely as their pixels", "[plot][kept]") {
    const auto s = test::map_study(nx, ny);
    const auto host = made_up_result(*s);
    auto device =
        std::make_shared<test::HostKeptMap>(*host, nx, ny, std::vector<std::string>{"period", "lambda_max"});
    auto kept = std::make_shared<study::Result>();
    kept->analysis = host->analysis;
    kept->system_count = host->system_count;
    kept->info = host->info;
    kept->kept = device;
    plot::ResultFigure whole(s);
    whole.setResult(host);
    plot::ResultFigure figure(s, true);
    figure.setResult(kept);
    const plot::PlotRange full = figure.fullRange();

    // a view 550 x 350 pixels over the whole map: every second cell; a smaller one keeps the preview's
    figure.setViewport(full, QSize(550, 350));
    figure.refresh();
    CHECK(figure.keptPicture()->step() == 2);
    CHECK(figure.image().size() == QSize(550, 350));
    figure.setViewport(full, QSize(200, 120));
    figure.refresh();
    CHECK(figure.keptPicture()->step() == 3);
    CHECK(figure.image().size() == QSize(367, 234));
    // the same pixels over a quarter of the map: every cell
    plot::PlotRange quarter = full;
    quarter.x.to = (full.x.from + full.x.to) / 2;
    quarter.y.to = (full.y.from + full.y.to) / 2;
    figure.setViewport(quarter, QSize(550, 350));
    figure.refresh();
    CHECK(figure.keptPicture()->step() == 1);
    CHECK(figure.image().size() == QSize(nx, ny));
    CHECK(device->downloads == 0); // samples, never the whole map's download

    QTemporaryDir dir;
    for (const QString quantity : {"lambda_max", "status", "period"}) {
        INFO(quantity.toStdString());
        REQUIRE(whole.setQuantity(quantity));
        REQUIRE(figure.setQuantity(quantity));
        // a plot area wider and taller than the map's cells: the export's picture is every cell
        const QSize size(1500, 1000);
        const QImage exported = plot::render_figure(figure, full, size);
        const QImage reference = plot::render_figure(whole, full, size);
        CHECK(figure.keptPicture()->step() == 1);
        REQUIRE(exported.size() == reference.size());
        int differ = 0;
        for (int y = 0; y < exported.height(); ++y)
            for (int x = 0; x < exported.width(); ++x)
                differ += !near(exported.pixel(x, y), reference.pixel(x, y));
        CHECK(differ == 0);
        const QString path = dir.filePath(quantity + ".png");
        CHECK(plot::export_png(figure, full, size, path).isEmpty());
        CHECK(QImage(path).size() == size);
        if (quantity == "period" && QDir().mkpath(BIFSCOPE_SCREENSHOT_DIR))
            exported.save(QStringLiteral(BIFSCOPE_SCREENSHOT_DIR "/plot-kept-map-export.png"));
    }
    CHECK(device->downloads == 0);
}

TEST_CASE("a tab exports a kept map's cells as the device keeps them", "[plot][kept]") {
    const auto s = test::map_study(120, 40);
    const auto host = std::make_shared<study::Result>(study::allocate_result(*s));
    for (std::size_t k = 0; k < host->system_count; ++k) {
        host->status[k] = k % 17 == 3 ? study::SystemStatus::StepSizeUnderflow : study::SystemStatus::Ok;
        test::column(*host, "period").values[k] = double(k % 7);
        test::column(*host, "lambda_max").values[k] = 0.1 / (1.0 + double(k)) - 1.0 / 3.0;
    }
    auto device = std::make_shared<test::HostKeptMap>(*host, 120, 40, std::vector<std::string>{"lambda_max"});
    auto kept = std::make_shared<study::Result>();
    kept->analysis = host->analysis;
    kept->system_count = host->system_count;
    kept->info.complete = true;
    kept->kept = device;

    ResultTab tab(s);
    tab.beginRun(s, true);
    tab.endRun(jobs::JobState::Succeeded, kept);
    REQUIRE(tab.figure()->keptMap() == device.get());
    QTemporaryDir dir;
    const QString path = dir.filePath("kept.csv");
    QString error;
    REQUIRE(tab.writeCsv(path, error));
    CHECK(device->downloads == 1);

    // what the export must hold: the host result with the kept column as floats, the other empty
    study::Result expected = *host;
    for (double& v : test::column(expected, "lambda_max").values)
        v = double(float(v));
    for (double& v : test::column(expected, "period").values)
        v = study::missing_value;
    std::ostringstream text;
    study::write_result_csv(text, expected, study::write_study_json(s->study));
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    CHECK(file.readAll().toStdString() == text.str());
}

namespace {

// Logistic-like points over k in [2.8, 4.0]: y1 the orbit, y2 a transform of it; every seventh system
// fills fewer rows and every 29th fails part way, so rows_filled and statuses vary.
std::shared_ptr<study::Result> made_up_points(const study::ResolvedStudy& d) {
    auto r = std::make_shared<study::Result>(study::allocate_result(d));
    const std::size_t rows = r->points.rows_per_system;
    for (std::size_t s = 0; s < r->system_count; ++s) {
        const double k = 2.8 + 1.2 * double(s) / double(r->system_count - 1);
        double x = 0.3;
        for (int n = 0; n < 200; ++n)
            x = k * x * (1 - x);
        const bool fails = s % 29 == 5;
        r->status[s] = fails ? study::SystemStatus::NonFinite : study::SystemStatus::Ok;
        const std::size_t filled = fails ? rows / 3 : s % 7 == 2 ? rows / 2 : rows;
        r->points.rows_filled[s] = std::uint32_t(filled);
        for (std::size_t row = 0; row < filled; ++row) {
            x = k * x * (1 - x);
            r->points.row(s, row)[0] = x;
            r->points.row(s, row)[1] = x * x - 0.3 * k;
        }
    }
    r->info.complete = true;
    return r;
}

// The result a device that keeps the points hands out: no points on the host, the device's handle.
std::shared_ptr<study::Result> kept_points_result(const study::Result& host,
                                                  std::shared_ptr<test::HostKeptPoints>& device) {
    device = std::make_shared<test::HostKeptPoints>(host);
    auto kept = std::make_shared<study::Result>(host);
    kept->points.rows_per_system = 0;
    kept->points.rows_filled.clear();
    kept->points.values.clear();
    kept->kept_points = device;
    return kept;
}

} // namespace

// A diagram whose points stay on a device (engine/study/kept_points.h): after a provisional preview of
// every third value, the kept result's pictures are binned where the points are, at any viewport,
// and equal the ordinary figure's of the same points pixel for pixel; the hover text counts the
// same points; a CSV export downloads them once and writes what the ordinary result writes.
TEST_CASE("a kept diagram's figure bins its points where they are kept", "[plot][kept]") {
    const auto d = test::diagram_study(2.8, 4.0, 1100, 60);
    const auto host = made_up_points(*d);
    std::shared_ptr<test::HostKeptPoints> device;
    const auto kept = kept_points_result(*host, device);

    plot::ResultFigure whole(d);
    whole.setResult(host);
    plot::ResultFigure figure(d, true);
    jobs::ResultBlock preview;
    preview.systems = study::kept_sample_systems(1100, 1, 3);
    study::ResolvedStudy part = *d;
    part.grid = d->grid.subset(preview.systems);
    auto rows = std::make_shared<study::Result>(study::allocate_result(part));
    for (std::size_t row = 0; row < preview.systems.size(); ++row) {
        const std::size_t s = preview.systems[row];
        rows->status[row] = host->status[s];
        rows->points.rows_filled[row] = host->points.rows_filled[s];
        for (std::size_t r = 0; r < host->points.rows_per_system; ++r)
            for (std::size_t c = 0; c < 2; ++c)
                rows->points.row(row, r)[c] = host->points.value(s, r, c);
    }
    preview.result = rows;
    preview.stride = 3;
    preview.provisional = true;
    figure.addBlock(preview);
    figure.refresh();
    CHECK(figure.systemsReceived() == preview.systems.size());
    CHECK_FALSE(figure.keptPoints());

    figure.setResult(kept);
    REQUIRE(figure.keptPoints() == device);
    CHECK(figure.systemsReceived() == host->system_count);
    std::vector<double> x, y;
    figure.pointColumns(x, y);
    CHECK(x.empty()); // the points are the device's: nothing to gather on the host
    for (const QString quantity : {"y1", "y2"}) {
        INFO(quantity.toStdString());
        REQUIRE(whole.setQuantity(quantity));
        REQUIRE(figure.setQuantity(quantity));
        // the y range as the whole host result has it
        CHECK(figure.fullRange() == whole.fullRange());
        plot::PlotRange zoomed = whole.fullRange();
        zoomed.x.from = 3.41;
        zoomed.x.to = 3.62;
        zoomed.y.to = (zoomed.y.from + zoomed.y.to) / 2;
        for (const plot::PlotRange& range : {whole.fullRange(), zoomed}) {
            const int before = device->densities;
            whole.setViewport(range, QSize(900, 500));
            figure.setViewport(range, QSize(900, 500));
            whole.refresh();
            figure.refresh();
            CHECK(device->densities == before + 1);
            REQUIRE(figure.image().size() == whole.image().size());
            CHECK(figure.image() == whole.image());
            CHECK(figure.colorKey().to == whole.colorKey().to);
            for (const auto& [fx, fy] : {std::pair{0.5, 0.5}, {0.31, 0.72}, {0.9, 0.1}, {0.05, 0.95}}) {
                const double px = range.x.from + fx * (range.x.to - range.x.from),
                             py = range.y.from + fy * (range.y.to - range.y.from);
                CHECK(figure.describe(px, py) == whole.describe(px, py));
            }
        }
    }
    CHECK(device->downloads == 0);

    ResultTab tab(d);
    tab.beginRun(d, true);
    tab.endRun(jobs::JobState::Succeeded, kept);
    QTemporaryDir dir;
    QString error;
    REQUIRE(tab.writeCsv(dir.filePath("kept.csv"), error));
    CHECK(device->downloads == 1);
    std::ostringstream text;
    study::write_result_csv(text, *host, study::write_study_json(d->study));
    QFile file(dir.filePath("kept.csv"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    CHECK(file.readAll().toStdString() == text.str());

    PlotView view;
    view.resize(900, 620);
    auto shown = std::make_shared<plot::ResultFigure>(d, true);
    shown->setResult(kept);
    view.setFigure(shown);
    view.show();
    REQUIRE(test::wait_until([&] { return !view.figure()->needsRefresh(); }, 5000));
    test::save_screenshot(view, "plot-kept-diagram");
}
