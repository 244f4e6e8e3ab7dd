// The status bar under an X server (xvfb-run, QT_QPA_PLATFORM=xcb): a map is drawn through OpenGL and
// the status bar says so; a continuation diagram (two sweep directions) falls back to QPainter with
// its reason. Without a GL 3.3 context the program is skipped (exit code 77).
#include "gl_test_target.h"
#include "gui_test_support.h"
#include "plot_test_studies.h"
#include "ui/window/main_window.h"
#include "ui/window/plot_area.h"
#include "ui/window/result_tab.h"
#include "ui/window/status_panel.h"

#include <QGuiApplication>
#include <catch2/catch.hpp>

using namespace bif;

TEST_CASE("the status bar names the OpenGL path where a GL 3.3 context runs", "[gui][status][drawing][gl]") {
    if (QGuiApplication::platformName() == QStringLiteral("offscreen")) {
        WARN("the GL path needs a windowing platform (QT_QPA_PLATFORM=xcb under xvfb-run)");
        return;
    }
    {
        // Skips the program where Qt gives no GL 3.3 context (the window below needs Qt's).
        test::GlTarget probe(QSize(8, 8), test::GlSource::Qt);
    }
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    ui::StatusPanel& status = window.statusPanel();
    ui::ResultTab* map = window.plotArea().addResultTab(test::map_study(8, 6));
    REQUIRE(map);
    // After the first paint (where the canvas could still fail) the text is the one in force.
    REQUIRE(test::wait_until([&] { return status.drawingText() == "Drawing: " + map->renderPath(); }, 5000));
    test::wait_until([] { return false; }, 300);
    INFO(status.drawingText().toStdString());
    // A map's cells come from host memory on either path (see FigureGlCanvas::uploadPath).
    CHECK(status.drawingText().startsWith("Drawing: OpenGL 3.3 (host upload"));

    window.plotArea().addResultTab(test::diagram_study(0.1, 0.4, 40, 8, true));
    CHECK(status.drawingText() ==
          QString::fromUtf8("Drawing: QPainter \u2014 two sweep directions are not drawn by OpenGL"));
    test::save_screenshot(window, "status_drawing_gl");
}
