// The status bar says how the current plot is drawn, and follows tab switches. On Qt's offscreen
// platform QOpenGLWidget cannot be composed and (without an NVIDIA GPU) there is no EGL device on a
// CUDA GPU, so plots fall back to QPainter and say why (test_gl_status_drawing checks the OpenGL
// text under an X server, test_plot_egl_canvas the EGL canvas's).
#include "gui_test_support.h"
#include "plot_test_studies.h"
#include "ui/window/main_window.h"
#include "ui/window/plot_area.h"
#include "ui/window/result_tab.h"
#include "ui/window/status_panel.h"

#include <QGuiApplication>
#include <QTabWidget>
#include <catch2/catch.hpp>

using namespace bif;

TEST_CASE("the status bar names the QPainter fallback and its reason on the offscreen platform",
          "[gui][status][drawing]") {
    if (QGuiApplication::platformName() != QStringLiteral("offscreen")) {
        WARN("this test is about the offscreen platform");
        return;
    }
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    ui::StatusPanel& status = window.statusPanel();
    ui::ResultTab* map = window.plotArea().addResultTab(test::map_study(8, 6));
    REQUIRE(map);
    // ...and no EGL device on a CUDA GPU to draw on instead (FigureEglCanvas), with why.
    INFO(status.drawingText().toStdString());
    CHECK(status.drawingText().startsWith(QString::fromUtf8(
        "Drawing: QPainter \u2014 QOpenGLWidget cannot be composed on the offscreen platform; ")));
    CHECK(status.drawingText().contains("EGL"));

    // A trajectory tab is drawn by Qt Charts; switching back shows the map's path again.
    study::Study s;
    s.analysis = study::AnalysisKind::Trajectory;
    s.trajectory.t_end = 10;
    s.trajectory.output_count = 11;
    window.plotArea().addResultTab(test::resolve(s));
    CHECK(status.drawingText() == "Drawing: Qt Charts");
    window.plotArea().tabs().setCurrentIndex(0);
    CHECK(status.drawingText().startsWith(QString::fromUtf8("Drawing: QPainter \u2014 ")));
    test::save_screenshot(window, "status_drawing_offscreen");
}
