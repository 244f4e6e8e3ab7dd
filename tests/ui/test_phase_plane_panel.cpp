// The phase-plane view as a user drives it, on van der Pol (x' = y, y' = mu (1 - x^2) y - x):
// open it, click a trajectory, keep and clear trajectories, move the parameter slider, read the
// equilibrium's tooltip, export PNG, SVG and CSV, save the view as a study; and the main window's
// View > Phase plane and `bifscope-cli plot` on a phase-plane study. References: the origin's
// eigenvalues mu/2 +- sqrt(mu^2/4 - 1) in closed form, the limit cycle's amplitude 2.0086 for mu = 1.
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "ui/phase/phase_plane_canvas.h"
#include "ui/phase/phase_plane_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/plot_area.h"

#include <QComboBox>
#include <QFile>
#include <QHelpEvent>
#include <QProcess>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;
using test::settled;

namespace {

const QString vdp_study = "tests/ui/data/vanderpol_phase_plane.json";

std::shared_ptr<const study::ResolvedStudy> load(const QString& relative) {
    auto loaded = study::load_study_file(test::source_path(relative).toStdString());
    for (const auto& p : loaded.problems)
        INFO(p.format());
    REQUIRE(loaded.resolved);
    return loaded.resolved;
}

double late_amplitude(const analysis::PlanarTrajectory& t, double after) {
    double a = 0;
    for (std::size_t k = 0; k < t.points.size(); ++k)
        if (t.t[k] > after) a = std::max(a, std::abs(t.points[k].x));
    return a;
}

} // namespace

TEST_CASE("the phase-plane panel draws van der Pol, starts trajectories and follows its slider",
          "[gui][phase_plane]") {
    ui::PhasePlanePanel panel;
    QString why;
    REQUIRE(panel.setStudy(load(vdp_study), &why));
    panel.resize(900, 700);
    panel.show();
    REQUIRE(settled(panel));
    const auto& scene = panel.scene();
    REQUIRE(scene.portrait);
    REQUIRE(scene.portrait->equilibria.size() == 1);
    CHECK(scene.portrait->equilibria[0].type == analysis::EquilibriumType::UnstableFocus);
    CHECK(!scene.portrait->nullclines[0].empty());
    CHECK(!scene.portrait->nullclines[1].empty());
    CHECK(scene.portrait->arrows.size() == 21u * 21u);
    CHECK(panel.xAxis().currentText() == "x");
    CHECK(panel.parameterChooser().currentText() == "mu");
    // the study's own trajectory, from (0.1, 0), winds out to the limit cycle
    REQUIRE(scene.trajectories.size() == 1);
    CHECK(late_amplitude(scene.trajectories[0], 25) == Approx(2.0086).margin(0.01));
    test::save_screenshot(panel, "phase_plane_vanderpol");

    SECTION("a click replaces the trajectory, or adds one while trajectories are kept") {
        const QPoint at = panel.canvas().positionOf({-2.5, 3.0});
        QTest::mouseClick(&panel.canvas(), Qt::LeftButton, {}, at);
        REQUIRE(settled(panel));
        REQUIRE(scene.trajectories.size() == 1);
        const auto& t = scene.trajectories[0];
        // the click's point to a pixel: 6/900 and 8/700 of the window per pixel at most
        CHECK(t.start.x == Approx(-2.5).margin(0.02));
        CHECK(t.start.y == Approx(3.0).margin(0.03));
        CHECK(late_amplitude(t, 25) == Approx(2.0086).margin(0.01)); // from outside, onto the same cycle
        panel.setKeepTrajectories(true);
        QTest::mouseClick(&panel.canvas(), Qt::LeftButton, {}, panel.canvas().positionOf({0.5, -0.5}));
        REQUIRE(settled(panel));
        CHECK(scene.trajectories.size() == 2);
        test::save_screenshot(panel, "phase_plane_two_trajectories");
        panel.clearTrajectories();
        CHECK(scene.trajectories.empty());
    }

    SECTION("the slider redraws: at mu = 3 the origin is an unstable node") {
        panel.slider().setValue(panel.slider().maximum() * 3 / 4); // range [0, 4]
        CHECK(panel.parameterValue() == Approx(3.0));
        REQUIRE(settled(panel));
        REQUIRE(scene.portrait->equilibria.size() == 1);
        const auto& e = scene.portrait->equilibria[0];
        CHECK(e.type == analysis::EquilibriumType::UnstableNode);
        CHECK(e.eigenvalues[0].real() == Approx((3 + std::sqrt(5.0)) / 2));
        // the kept trajectory follows the new parameter: the cycle of mu = 3 reaches |x| = 2.02
        REQUIRE(scene.trajectories.size() == 1);
        CHECK(late_amplitude(scene.trajectories[0], 25) == Approx(2.02).margin(0.02));
        CHECK(scene.title.endsWith("mu = 3"));
        test::save_screenshot(panel, "phase_plane_mu3");

        // the view as a study: the slider's value and the trajectory's start come back
        const auto reread = study::read_study_json(study::write_study_json(panel.study()));
        REQUIRE(reread.study);
        CHECK(reread.study->analysis == study::AnalysisKind::PhasePlane);
        CHECK(reread.study->phase_plane.slider == "mu");
        bool has_mu = false;
        for (const auto& [name, value] : reread.study->parameters)
            if (name == "mu") has_mu = value == Approx(3.0);
        CHECK(has_mu);
        CHECK(reread.study->phase_plane.starts.size() == 1);
    }

    SECTION("hovering the equilibrium shows its type and eigenvalues") {
        const QPoint at = panel.canvas().positionOf({0, 0});
        QHelpEvent help(QEvent::ToolTip, at, panel.canvas().mapToGlobal(at));
        QApplication::sendEvent(&panel.canvas(), &help);
        CHECK(QToolTip::text().contains("unstable focus"));
        CHECK(QToolTip::text().contains("0.5 +- 0.866i"));
    }

    SECTION("exports: PNG and SVG pictures, CSV of nullclines, trajectories and equilibria") {
        QTemporaryDir dir;
        const QString png = dir.filePath("plane.png"), svg = dir.filePath("plane.svg"),
                      csv = dir.filePath("plane.csv");
        CHECK(panel.exportPng(png, QSize(1200, 900)).isEmpty());
        CHECK(panel.exportSvg(svg, QSize(1200, 900)).isEmpty());
        CHECK(panel.exportCsv(csv).isEmpty());
        const QImage image(png);
        CHECK(image.size() == QSize(1200, 900));
        QFile s(svg);
        REQUIRE(s.open(QIODevice::ReadOnly));
        const QByteArray svg_text = s.readAll();
        CHECK(svg_text.contains("<svg"));
        CHECK(svg_text.count("<path") > 10);
        QFile c(csv);
        REQUIRE(c.open(QIODevice::ReadOnly | QIODevice::Text));
        const QString text = QString::fromUtf8(c.readAll());
        CHECK(text.startsWith("curve,index,t,x,y,note\n"));
        CHECK(text.count("\ntrajectory,") == int(scene.trajectories[0].points.size()));
        CHECK(text.contains("nullcline x' = 0"));
        CHECK(text.contains("nullcline y' = 0"));
        CHECK(text.contains("\nequilibrium,0,,"));
        CHECK(text.contains("unstable focus, eigenvalues 0.5 +- 0.866i"));
    }
}

TEST_CASE("the window opens a phase plane from the View menu and from a study file",
          "[gui][phase_plane][app]") {
    ui::MainWindow window;
    window.show();
    REQUIRE(window.openFile(test::source_path("resources/models/vanderpol.ode")));
    ui::PhasePlanePanel* panel = window.showPhasePlane();
    REQUIRE(panel);
    REQUIRE(settled(*panel));
    // the model's @ xlo=-3, xhi=3, ylo=-3, yhi=3 set the window
    CHECK(panel->scene().window.x_from == -3);
    CHECK(panel->scene().window.y_to == 3);
    REQUIRE(panel->scene().portrait->equilibria.size() == 1);
    QTest::mouseClick(&panel->canvas(), Qt::LeftButton, {}, panel->canvas().positionOf({1.0, 1.0}));
    REQUIRE(settled(*panel));
    CHECK(window.plotArea().currentPhasePlane() == panel);
    test::save_screenshot(window, "phase_plane_window_default");
    window.resize(1280, 800);
    test::save_screenshot(window, "phase_plane_window_1280x800");

    REQUIRE(window.openFile(test::source_path(vdp_study)));
    CHECK(window.plotArea().tabs().count() == 2);
    ui::PhasePlanePanel* opened = window.plotArea().currentPhasePlane();
    REQUIRE(opened);
    REQUIRE(settled(*opened));
    CHECK(opened->scene().window.y_to == 4);
}

#ifdef BIFSCOPE_CLI
TEST_CASE("bifscope-cli plot draws a phase-plane study", "[gui][phase_plane][cli]") {
    QTemporaryDir dir;
    for (const QString name : {"plane.png", "plane.svg"}) {
        QProcess p;
        p.start(BIFSCOPE_CLI,
                {"plot", test::source_path(vdp_study), "--out", dir.filePath(name), "--size", "800x600"});
        REQUIRE(p.waitForFinished(60000));
        INFO(p.readAllStandardError().toStdString());
        CHECK(p.exitCode() == 0);
        CHECK(QString::fromUtf8(p.readAllStandardOutput()).contains("1 equilibria"));
    }
    CHECK(QImage(dir.filePath("plane.png")).size() == QSize(800, 600));
    QFile svg(dir.filePath("plane.svg"));
    REQUIRE(svg.open(QIODevice::ReadOnly));
    CHECK(svg.readAll().contains("<svg"));
}
#endif
