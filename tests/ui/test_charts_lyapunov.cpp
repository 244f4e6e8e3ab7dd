// LyapunovChart against a real CPU run: one point per finished system at the result's values,
// sorted whatever order blocks arrive in, provisional blocks replaced, failures counted, a log axis
// for a log sweep, the zero line, picking by click, and export.
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "ui/charts/lyapunov_chart.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <random>

using namespace bif;

namespace {

std::shared_ptr<const study::ResolvedStudy> resolve(const std::string& json) {
    const auto read = study::read_study_json(json);
    REQUIRE(read.study);
    const auto resolved =
        study::resolve_study(*read.study, test::source_path("resources/studies").toStdString());
    for (const auto& p : resolved.problems)
        INFO(p.format());
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

std::shared_ptr<const study::Result> run_on_cpu(std::shared_ptr<const study::ResolvedStudy> study) {
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cpu;
    auto job = jobs::submit(jobs::installed_backends(), study, options);
    job->wait();
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    return job->result();
}

// The block of `systems` cut out of a whole result, as a progressive job would publish it.
jobs::ResultBlock block_of(const study::Result& whole, std::vector<std::size_t> systems,
                           bool provisional = false) {
    auto part = std::make_shared<study::Result>();
    part->analysis = whole.analysis;
    part->system_count = systems.size();
    part->axes = whole.axes;
    part->scalars = whole.scalars;
    for (auto& c : part->axes)
        c.values.clear();
    for (auto& c : part->scalars)
        c.values.clear();
    for (std::size_t s : systems) {
        part->status.push_back(whole.status[s]);
        for (std::size_t a = 0; a < whole.axes.size(); ++a)
            part->axes[a].values.push_back(whole.axes[a].values[s]);
        for (std::size_t c = 0; c < whole.scalars.size(); ++c)
            part->scalars[c].values.push_back(whole.scalars[c].values[s]);
    }
    jobs::ResultBlock block;
    block.result = part;
    block.systems = std::move(systems);
    block.provisional = provisional;
    return block;
}

const std::string duffing_lyapunov = R"({
  "bifscope_study": 1,
  "title": "Duffing: largest Lyapunov exponent against k",
  "model": {"path": "../models/duffing.ode"},
  "parameters": {"b": 0.3, "delta": 1, "omega": 1},
  "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 12}],
  "analysis": {"kind": "lyapunov", "exponents": "largest", "transient_time": 200,
               "averaging_time": 600, "renormalization_interval": 6.283185307},
  "solver": {"method": "rkck45", "rtol": 1e-8, "atol": 1e-8}
})";

const std::string lorenz_spectrum = R"({
  "bifscope_study": 1,
  "title": "Lorenz: Lyapunov spectrum against rho",
  "model": {"path": "../models/lorenz.ode"},
  "sweep": [{"parameter": "rho", "from": 10, "to": 200, "count": 9, "scale": "log"}],
  "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 20,
               "averaging_time": 150, "renormalization_interval": 0.5},
  "solver": {"method": "dopri5", "rtol": 1e-8, "atol": 1e-8}
})";

// (k, lambda) of the finished systems, sorted by k: the reference the chart's series must equal.
QList<QPointF> expected_points(const study::Result& r, const char* column, std::size_t skip = SIZE_MAX) {
    QList<QPointF> points;
    for (std::size_t s = 0; s < r.system_count; ++s)
        if (s != skip && r.status[s] == study::SystemStatus::Ok)
            points.append(QPointF(r.axes[0].values[s], r.scalar(column)->values[s]));
    std::sort(points.begin(), points.end(), [](QPointF a, QPointF b) { return a.x() < b.x(); });
    return points;
}

int non_white_pixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += image.pixel(x, y) != qRgb(255, 255, 255);
    return n;
}

} // namespace

TEST_CASE("Lyapunov chart: blocks in any order end as the result's sorted points", "[charts][lyapunov]") {
    const auto study = resolve(duffing_lyapunov);
    const auto result = run_on_cpu(study);
    REQUIRE(result->count(study::SystemStatus::Ok) == result->system_count);

    ui::LyapunovChart chart(study);
    chart.resize(820, 520);
    // A provisional block of made-up exponents first: the real systems must replace it.
    auto garbage = std::make_shared<study::Result>(*block_of(*result, {0, 1, 2}).result);
    for (double& v : garbage->scalars[0].values)
        v = 5.0;
    jobs::ResultBlock provisional{garbage, {0, 1, 2}, 0, 2, 2, true};
    chart.addBlock(provisional);

    std::vector<std::size_t> order(result->system_count);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    // System 5 arrives as a failure: left out of the series, counted in the note.
    const std::size_t failed = 5;
    for (std::size_t i = 0; i < order.size(); i += 3) {
        std::vector<std::size_t> systems(order.begin() + i, order.begin() + std::min(i + 3, order.size()));
        std::sort(systems.begin(), systems.end());
        jobs::ResultBlock block = block_of(*result, systems);
        auto part = std::make_shared<study::Result>(*block.result);
        for (std::size_t j = 0; j < systems.size(); ++j)
            if (systems[j] == failed) part->status[j] = study::SystemStatus::NonFinite;
        block.result = part;
        chart.addBlock(block);
    }
    REQUIRE(chart.repaintPending()); // coalesced: nothing drawn until the timer fires
    REQUIRE(test::wait_until([&] { return !chart.repaintPending(); }, 2000));

    REQUIRE(chart.exponentSeries().size() == 1);
    const QList<QPointF> shown = chart.exponentSeries()[0]->points();
    const QList<QPointF> expected = expected_points(*result, "lambda1", failed);
    REQUIRE(shown.size() == expected.size());
    for (qsizetype i = 0; i < shown.size(); ++i) {
        CHECK(shown[i].x() == expected[i].x());
        CHECK(shown[i].y() == expected[i].y());
    }
    CHECK(chart.failedCount() == 1);
    CHECK(chart.failureNote().contains("1 system"));

    // The zero line spans the sweep at lambda = 0, dashed.
    const QList<QPointF> zero = chart.zeroLine()->points();
    REQUIRE(zero.size() == 2);
    CHECK(zero[0].y() == 0.0);
    CHECK(zero[1].y() == 0.0);
    CHECK(zero[0].x() == Approx(0.2));
    CHECK(zero[1].x() == Approx(0.3));
    CHECK(chart.zeroLine()->pen().style() == Qt::DashLine);
    CHECK(chart.xAxis()->type() == QAbstractAxis::AxisTypeValue);
    CHECK(chart.xAxis()->titleText() == "k");
    CHECK(chart.yAxis()->titleText().contains("1/time"));
    CHECK(chart.chart()->title().contains("Duffing"));

    // A click on a system's point picks that system; the hover read-out names its exponent.
    const std::size_t target = 8;
    const QPointF value(result->axes[0].values[target], result->scalar("lambda1")->values[target]);
    auto* view = chart.findChild<QChartView*>();
    const QPoint pixel = view->mapFromScene(chart.chart()->mapToPosition(value, chart.exponentSeries()[0]));
    QSignalSpy clicked(&chart, &ui::LyapunovChart::systemClicked);
    QTest::mouseMove(view->viewport(), pixel);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, pixel);
    REQUIRE(clicked.count() == 1);
    CHECK(clicked.front().front().value<std::size_t>() == target);
    std::size_t nearest = 0;
    REQUIRE(chart.nearestSystem(result->axes[0].values[target] + 0.001, nearest));
    CHECK(nearest == target);

    test::save_screenshot(chart, "charts_lyapunov_largest");
    chart.setStale(true);
    test::save_screenshot(chart, "charts_lyapunov_stale");
    chart.setStale(false);

    const QImage image = chart.renderImage(QSize(1000, 600));
    CHECK(image.size() == QSize(1000, 600));
    CHECK(non_white_pixels(image) > 5000);
    image.save(QString(BIFSCOPE_SCREENSHOT_DIR) + "/charts_lyapunov_export.png");
    QTemporaryDir dir;
    const QString svg = dir.filePath("lyapunov.svg");
    REQUIRE(chart.writeSvg(svg, QSize(900, 500)));
    QSvgRenderer renderer(svg);
    CHECK(renderer.isValid());
    CHECK(renderer.viewBox() == QRect(0, 0, 900, 500));
}

TEST_CASE("Lyapunov chart: a log sweep of the spectrum", "[charts][lyapunov]") {
    const auto study = resolve(lorenz_spectrum);
    const auto result = run_on_cpu(study);
    ui::LyapunovChart chart(study);
    chart.resize(820, 520);
    chart.setResult(*result);
    REQUIRE(test::wait_until([&] { return !chart.repaintPending(); }, 2000));

    CHECK(chart.xAxis()->type() == QAbstractAxis::AxisTypeLogValue);
    REQUIRE(chart.exponentSeries().size() == 3);
    for (int k = 0; k < 3; ++k) {
        const std::string column = "lambda" + std::to_string(k + 1);
        const QList<QPointF> expected = expected_points(*result, column.c_str());
        const QList<QPointF> shown = chart.exponentSeries()[k]->points();
        REQUIRE(shown.size() == expected.size());
        for (qsizetype i = 0; i < shown.size(); ++i)
            CHECK(shown[i] == expected[i]);
    }
    CHECK(chart.chart()->legend()->isVisible());
    test::save_screenshot(chart, "charts_lyapunov_spectrum");

    chart.setShowSpectrum(false);
    REQUIRE(test::wait_until([&] { return !chart.repaintPending(); }, 2000));
    CHECK(chart.exponentSeries()[0]->isVisible());
    CHECK_FALSE(chart.exponentSeries()[1]->isVisible());
    CHECK(chart.exponentSeries()[1]->points().isEmpty());
}
