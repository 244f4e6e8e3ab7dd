// TrajectoryInspector on a Duffing bifurcation diagram: the recomputed system is exactly the
// diagram's (its state at the section times equals the diagram's recorded values), its section
// points lie on its trajectory at t0 + n T, and a newer request wins. Also TrajectoryChart export.
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "ui/charts/trajectory_chart.h"
#include "ui/charts/trajectory_inspector.h"

#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;

namespace {

// A weak forcing (B = 0.15): every system settles on a stable orbit, so that two integrations with
// different step sequences agree to far better than the tolerance checked (with chaos they need not).
const std::string duffing_diagram = R"({
  "bifscope_study": 1,
  "title": "Duffing diagram against k",
  "model": {"path": "../models/duffing.ode"},
  "parameters": {"b": 0.15, "delta": 1, "omega": 1},
  "t0": 1.5,
  "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 5}],
  "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
               "transient_sections": 40, "recorded_sections": 12, "record": ["y1", "y2"]},
  "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10}
})";

std::shared_ptr<const study::ResolvedStudy> resolve(const std::string& json) {
    const auto read = study::read_study_json(json);
    REQUIRE(read.study);
    const auto resolved =
        study::resolve_study(*read.study, test::source_path("resources/studies").toStdString());
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

// Linear interpolation of column q of the trajectory at time t (t within its range).
double at_time(const ui::TrajectoryData& d, std::size_t q, double t) {
    const auto it = std::lower_bound(d.t.begin(), d.t.end(), t);
    REQUIRE(it != d.t.end());
    const std::size_t i = std::size_t(it - d.t.begin());
    if (d.t[i] == t || i == 0) return d.values[q][i];
    const double w = (t - d.t[i - 1]) / (d.t[i] - d.t[i - 1]);
    return (1 - w) * d.values[q][i - 1] + w * d.values[q][i];
}

} // namespace

TEST_CASE("Trajectory inspector: exactly the diagram's system, section points on its trajectory",
          "[charts][inspector]") {
    const auto study = resolve(duffing_diagram);
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cpu;
    auto job = jobs::submit(jobs::installed_backends(), study, options);
    job->wait();
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    const auto diagram = job->result();

    ui::TrajectoryInspector inspector;
    inspector.resize(760, 820);
    // A request that the next one supersedes: only the last system may be shown.
    inspector.inspect(study, 1);
    const std::size_t system = 4;
    inspector.inspect(study, system);
    REQUIRE(test::wait_until([&] { return !inspector.busy(); }, 30000));
    INFO(inspector.statusText().toStdString());
    REQUIRE(inspector.data());
    CHECK(inspector.system() == system);
    CHECK(inspector.systemText().contains("k = 0.3"));
    INFO(inspector.statusText().toStdString());

    const ui::TrajectoryData& d = *inspector.data();
    REQUIRE(d.quantities == std::vector<std::string>{"y1", "y2"});
    REQUIRE(d.mark_t.size() == 12);
    const double period = 2 * M_PI;
    for (std::size_t r = 0; r < d.mark_t.size(); ++r) {
        // Stroboscopic section points of the study: t0 + n T after the 40 transient ones.
        CHECK(d.mark_t[r] == Approx(1.5 + double(40 + 1 + r) * period).epsilon(1e-12));
        for (std::size_t q = 0; q < 2; ++q) {
            const double on_trajectory = at_time(d, q, d.mark_t[r]);
            const double diagram_value = diagram->points.value(system, r, q);
            CHECK(d.marks[q][r] == Approx(on_trajectory).margin(1e-6));
            CHECK(on_trajectory == Approx(diagram_value).margin(1e-6));
        }
    }
    // The window: from the section point before the first marked one to the last.
    CHECK(d.t.front() == Approx(1.5 + 40 * period));
    CHECK(d.t.back() == Approx(d.mark_t.back()));
    // A system of another k would differ: the check above is not satisfied by any system.
    bool another_matches = true;
    for (std::size_t q = 0; q < 2; ++q)
        another_matches = another_matches && std::abs(d.marks[q][0] - diagram->points.value(0, 0, q)) < 1e-6;
    CHECK_FALSE(another_matches);

    ui::TrajectoryChart* phase = inspector.phasePortrait();
    REQUIRE(phase->markSeries());
    CHECK(phase->markSeries()->count() == 12);
    CHECK(phase->phaseX() == "y1");
    CHECK(phase->phaseY() == "y2");
    CHECK(inspector.timeSeries()->lines().size() == 1);
    inspector.timeSeries()->setTimeSeriesQuantities({"y1", "y2"});
    CHECK(inspector.timeSeries()->lines().size() == 2);
    CHECK(inspector.timeSeries()->markSeries()->count() == 24);
    test::save_screenshot(inspector, "charts_inspector");

    const QImage image = phase->renderImage(QSize(640, 480));
    CHECK(image.size() == QSize(640, 480));
    QTemporaryDir dir;
    REQUIRE(phase->writeSvg(dir.filePath("phase.svg"), QSize(640, 480)));
    CHECK(QSvgRenderer(dir.filePath("phase.svg")).isValid());

    // A second system reuses the model's code: no second compile (the evaluator needs none).
    inspector.inspect(study, 2);
    REQUIRE(test::wait_until([&] { return !inspector.busy(); }, 30000));
    CHECK(inspector.system() == 2);
    REQUIRE(inspector.trajectoryResult());
    const std::string note = inspector.trajectoryResult()->info.code_note;
    INFO(note);
    CHECK((note == "cache hit" || note.rfind("compiler-free evaluator", 0) == 0));
}

TEST_CASE("Trajectory inspector: a Lyapunov study's system after its transient", "[charts][inspector]") {
    const auto study = resolve(R"({
      "bifscope_study": 1, "title": "Lorenz",
      "model": {"path": "../models/lorenz.ode"},
      "sweep": [{"parameter": "rho", "from": 20, "to": 30, "count": 3}],
      "analysis": {"kind": "lyapunov", "transient_time": 30, "averaging_time": 40,
                   "renormalization_interval": 0.5},
      "solver": {"method": "dopri5", "rtol": 1e-8, "atol": 1e-8}
    })");
    ui::TrajectoryInspector inspector;
    inspector.resize(760, 820);
    inspector.inspect(study, 2);
    REQUIRE(test::wait_until([&] { return !inspector.busy(); }, 30000));
    REQUIRE(inspector.data());
    const ui::TrajectoryData& d = *inspector.data();
    CHECK(d.t.front() == Approx(30.0));
    CHECK(d.t.back() == Approx(55.0)); // 50 renormalisation intervals
    CHECK(d.mark_t.empty());
    CHECK(inspector.systemText().contains("rho = 30"));
    inspector.phasePortrait()->setPhaseAxes("x", "z");
    test::save_screenshot(inspector, "charts_inspector_lorenz");
}

TEST_CASE("Trajectory charts keep readable tick labels at the inspector's size in the window",
          "[charts][inspector]") {
    auto data = std::make_shared<ui::TrajectoryData>();
    data->quantities = {"x", "y"};
    data->values.resize(2);
    for (int i = 0; i <= 2000; ++i) {
        const double t = 0.05 * i;
        data->t.push_back(t);
        data->values[0].push_back(1.7 * std::cos(t));
        data->values[1].push_back(-3.2 * std::sin(t) + 0.4);
    }
    // Charts as short as the docked inspector's (each of its two charts gets about 170 px of height;
    // Qt Charts elided every y label there to "..."), and a roomy one: every y label a number, none
    // elided, at least two of them.
    for (const QSize size : {QSize(520, 200), QSize(460, 170), QSize(700, 520)}) {
        for (const auto mode :
             {ui::TrajectoryChart::Mode::TimeSeries, ui::TrajectoryChart::Mode::PhasePortrait}) {
            ui::TrajectoryChart chart(mode);
            chart.resize(size);
            chart.setData(data);
            chart.show();
            QCoreApplication::processEvents();
            test::wait_until([] { return false; }, 50); // the chart lays out in posted events
            const test::ChartLabels labels = test::chart_labels(*chart.chart());
            INFO(size.width() << "x" << size.height() << " y labels: " << labels.y.join(" | ").toStdString()
                              << "; x labels: " << labels.x.join(" | ").toStdString());
            int numbers = 0;
            for (const QString& label : labels.y) {
                CHECK_FALSE(test::elided(label));
                bool ok = false;
                label.toDouble(&ok);
                numbers += ok;
            }
            for (const QString& label : labels.x)
                CHECK_FALSE(test::elided(label));
            CHECK(numbers >= 2);
            if (size == QSize(460, 170) && mode == ui::TrajectoryChart::Mode::TimeSeries)
                test::save_screenshot(chart, "charts_short_time_series");
        }
    }
}
