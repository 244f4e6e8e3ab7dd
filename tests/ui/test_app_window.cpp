// The whole window as a user drives it: open a study, run it, see the picture, zoom, go back, export,
// cancel, save and reopen. Independent references: the Duffing period-1 orbit integrated here by a
// plain RK4 loop, the engine's CSV writer read back, the study file format.
#include "duffing_reference.h"
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "ui/charts/trajectory_chart.h"
#include "ui/charts/trajectory_inspector.h"
#include "ui/editor/model_editor_panel.h"
#include "ui/plot/result_figure.h"
#include "ui/shell/theme.h"
#include "ui/study/study_panel.h"
#include "ui/views/plot_view.h"
#include "ui/window/document_controller.h"
#include "ui/window/figure_result_view.h"
#include "ui/window/main_window.h"
#include "ui/window/messages_panel.h"
#include "ui/window/plot_area.h"
#include "ui/window/result_tab.h"
#include "ui/window/run_controller.h"
#include "ui/window/status_panel.h"

#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;

namespace {

const QString period1_study = "tests/ui/data/duffing_period1.json";

bool wait_for_result(ui::MainWindow& window, int timeout_ms = 120000) {
    return test::wait_until(
        [&] {
            return !window.runs().running() && window.plotArea().currentTab() &&
                   window.plotArea().currentTab()->result();
        },
        timeout_ms);
}

// Shows the window, opens `study` (relative to the source tree), runs it and waits for its result.
ui::ResultTab& open_and_run(ui::MainWindow& window, const QString& study = period1_study) {
    window.resize(1400, 900);
    window.show();
    REQUIRE(window.openFile(test::source_path(study)));
    REQUIRE(window.runStudy());
    REQUIRE(wait_for_result(window));
    return *window.plotArea().currentTab();
}

} // namespace

TEST_CASE("a study opened and run in the window draws its period-1 branch at the right height",
          "[gui][app]") {
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    test::save_screenshot(window, "app_empty");
    REQUIRE(window.openFile(test::source_path(period1_study)));
    REQUIRE(window.runStudy());
    REQUIRE(wait_for_result(window));
    ui::ResultTab* tab = window.plotArea().currentTab();
    REQUIRE(tab->result()->info.complete);
    test::save_screenshot(window, "app_diagram_done");

    // Independent reference: the period-1 point at grid value k_32 (64 values on [0.44, 0.5]) by RK4 here.
    const double k = 0.44 + (0.5 - 0.44) * 32 / 63;
    const double y1 = test::duffing_stroboscopic_y1(k, 0.3, 136);
    auto* figure = tab->figure();
    REQUIRE(figure != nullptr);
    figure->setQuantity(QString("y1"));
    figure->refresh();
    const plot::PlotRange range = figure->imageRange();
    const QImage& image = figure->image();
    const int px = int((k - range.x.from) / (range.x.to - range.x.from) * image.width());
    const int py = int((range.y.to - y1) / (range.y.to - range.y.from) * image.height());
    std::uint32_t near = 0, far = 0;
    for (int dy = -2; dy <= 2; ++dy)
        near += figure->count(px, std::clamp(py + dy, 0, image.height() - 1));
    for (int y = 0; y < image.height(); ++y)
        if (std::abs(y - py) > 4) far += figure->count(px, y);
    INFO("range x " << range.x.from << ".." << range.x.to << " y " << range.y.from << ".." << range.y.to
                    << " image " << image.width() << "x" << image.height() << " px " << px << " py " << py
                    << " y1 " << y1);
    CHECK(near > 0);
    CHECK(far == 0); // period 1: every recorded point of that column sits on the branch
}

TEST_CASE("cancelling a large run keeps the window responsive and usable", "[gui][app]") {
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    REQUIRE(window.openFile(test::source_path("tests/ui/data/duffing_large_map.json")));
    // The UI thread must never wait on the engine: measure the largest gap between 10 ms timer ticks
    // while a 10^6-system map runs.
    QElapsedTimer clock;
    qint64 last = 0, largest_gap = 0;
    QTimer ticker;
    ticker.setInterval(10);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        largest_gap = std::max(largest_gap, now - last);
        last = now;
    });
    REQUIRE(window.runStudy());
    clock.start();
    ticker.start();
    test::wait_until([&] { return clock.elapsed() > 4000; }, 10000);
    ticker.stop(); // before the screenshot, whose whole-window grab is the test's own work
    WARN("largest gap between 10 ms timer ticks while 10^6 systems ran: " << largest_gap << " ms");
    CHECK(largest_gap < 100);
    CHECK(window.runs().running());
    CHECK(window.statusPanel().running());
    CHECK(window.statusPanel().progressFraction() > 0.0);
    test::save_screenshot(window, "app_map_running");
    window.runs().cancel();
    REQUIRE(test::wait_until([&] { return !window.runs().running(); }, 5000));
    ui::ResultTab* cancelled = window.plotArea().currentTab();
    CHECK(cancelled->stale());
    CHECK_FALSE(cancelled->result()->info.complete);
    test::save_screenshot(window, "app_map_cancelled");

    // Still usable: a small study runs to completion afterwards.
    REQUIRE(window.openFile(test::source_path(period1_study)));
    REQUIRE(window.runStudy());
    REQUIRE(wait_for_result(window));
    CHECK(window.plotArea().currentTab()->result()->info.complete);
}

TEST_CASE("exports and a saved study read back", "[gui][app]") {
    QTemporaryDir dir;
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    REQUIRE(window.openFile(test::source_path(period1_study)));
    REQUIRE(window.runStudy());
    REQUIRE(wait_for_result(window));
    ui::ResultTab* tab = window.plotArea().currentTab();

    const QImage png = tab->renderImage(QSize(2400, 1500));
    CHECK(png.size() == QSize(2400, 1500));
    REQUIRE(tab->writeSvg(dir.filePath("figure.svg"), QSize(1200, 800)));
    QFile svg(dir.filePath("figure.svg"));
    REQUIRE(svg.open(QIODevice::ReadOnly));
    const QByteArray svg_text = svg.readAll();
    CHECK(svg_text.contains("<svg"));
    CHECK(svg_text.contains("</svg>"));

    QString error;
    REQUIRE(tab->writeCsv(dir.filePath("data.csv"), error));
    QFile csv(dir.filePath("data.csv"));
    REQUIRE(csv.open(QIODevice::ReadOnly | QIODevice::Text));
    int rows = 0;
    bool header = false;
    while (!csv.atEnd()) {
        const QByteArray line = csv.readLine();
        if (line.startsWith('#')) continue;
        if (!header) {
            header = true;
            CHECK(line.startsWith("k,status"));
            continue;
        }
        ++rows;
    }
    CHECK(rows == 64 * 8); // 64 values of k, 8 recorded points each

    // The panel and the study file are the same thing: saved, reopened, equal.
    const std::string before =
        study::write_study_json(window.documents().studyForFile(dir.filePath("s.json")));
    REQUIRE(window.documents().saveStudy(dir.filePath("s.json")));
    ui::MainWindow second;
    REQUIRE(second.openFile(dir.filePath("s.json")));
    CHECK(study::write_study_json(second.documents().studyForFile(dir.filePath("s.json"))) == before);
}

TEST_CASE("a rubber-band zoom recomputes the zoomed ranges and back restores the old picture", "[gui][app]") {
    ui::MainWindow window;
    ui::ResultTab* tab = &open_and_run(window);
    const auto first_study = tab->study();
    const auto first_result = tab->result();
    auto* figure_view = dynamic_cast<ui::FigureResultView*>(&tab->view());
    REQUIRE(figure_view != nullptr);
    ui::PlotView& view = figure_view->plotView();
    const QRectF area = view.plotArea();
    const auto at = [&](double fx, double fy) {
        return QPoint(int(area.left() + fx * area.width()), int(area.top() + fy * area.height()));
    };
    // A band over the middle half of k: the new run sweeps exactly the band's k range.
    const plot::PlotRange before = view.range();
    QTest::mousePress(&view, Qt::RightButton, Qt::NoModifier, at(0.25, 0.1));
    QTest::mouseMove(&view, at(0.5, 0.5));
    QTest::mouseMove(&view, at(0.75, 0.9));
    QTest::mouseRelease(&view, Qt::RightButton, Qt::NoModifier, at(0.75, 0.9));
    REQUIRE(test::wait_until([&] { return tab->study() != first_study; }, 5000));
    test::save_screenshot(window, "app_zoom_running");
    REQUIRE(wait_for_result(window));
    const study::SweepAxis& zoomed = tab->study()->study.sweep[0];
    const double expected_from = before.x.from + 0.25 * (before.x.to - before.x.from);
    const double expected_to = before.x.from + 0.75 * (before.x.to - before.x.from);
    const double pixel = (before.x.to - before.x.from) / area.width();
    CHECK(std::abs(zoomed.from - expected_from) < 2 * pixel);
    CHECK(std::abs(zoomed.to - expected_to) < 2 * pixel);
    CHECK(zoomed.count >= 64); // the view's resolution, not the old count
    CHECK(window.studyPanel().study().sweep[0].from == zoomed.from); // Save study writes what is shown
    CHECK(tab->result()->info.complete);
    test::save_screenshot(window, "app_zoomed");

    // Back: the first picture returns at once, from the tab's own results, with no run.
    tab->back();
    CHECK_FALSE(window.runs().running());
    CHECK(tab->study() == first_study);
    CHECK(tab->result() == first_result);
    CHECK(view.range() == before);
    CHECK(window.studyPanel().study().sweep[0].from == first_study->study.sweep[0].from);
    tab->forward();
    CHECK(tab->study()->study.sweep[0].from == zoomed.from);
}

TEST_CASE("a model typed with an error shows its diagnostic and blocks Run until fixed", "[gui][app]") {
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ui::ModelEditorPanel& editor = window.editorPanel();
    editor.setText("x'=y\ny'=-a*x+\npar a=1\ndone\n");
    REQUIRE(test::wait_until([&] { return !editor.diagnostics().empty(); }, 5000));
    const auto& d = editor.diagnostics().front();
    CHECK(d.line == 2);
    CHECK(d.severity == model::Severity::Error);
    test::save_screenshot(window, "app_model_error");
    CHECK_FALSE(window.runStudy());
    editor.setText("x'=y\ny'=-a*x\npar a=1\ndone\n");
    REQUIRE(test::wait_until([&] { return editor.model() != nullptr; }, 5000));
    CHECK(std::none_of(editor.diagnostics().begin(), editor.diagnostics().end(),
                       [](const model::Diagnostic& x) { return x.severity == model::Severity::Error; }));
}

TEST_CASE("the window in the dark look keeps its picture and text readable", "[gui][app]") {
    auto& app = *qobject_cast<QApplication*>(QCoreApplication::instance());
    ui::applyTheme(app, ui::ThemeMode::Dark);
    {
        ui::MainWindow window;
        open_and_run(window);
        const QImage shot = test::save_screenshot(window, "app_dark_diagram");
        // The plot's background follows the dark palette: its centre is dark, not a white card.
        ui::ResultTab* tab = window.plotArea().currentTab();
        const QPoint centre = tab->mapTo(&window, tab->rect().center());
        CHECK(QColor(shot.pixel(centre)).lightness() < 100);
    }
    ui::applyTheme(app, ui::ThemeMode::Light);
}

TEST_CASE("clicking a point of the diagram inspects exactly that system", "[gui][app]") {
    ui::MainWindow window;
    ui::ResultTab* tab = &open_and_run(window);
    auto* figure_view = dynamic_cast<ui::FigureResultView*>(&tab->view());
    REQUIRE(figure_view != nullptr);
    ui::PlotView& view = figure_view->plotView();
    std::size_t inspected = SIZE_MAX;
    QObject::connect(&window.inspector(), &ui::TrajectoryInspector::inspected,
                     [&](std::size_t system) { inspected = system; });
    // A click at 30% of the k axis: the system whose k is nearest to the clicked pixel's k.
    const QRectF area = view.plotArea();
    const QPoint click(int(area.left() + 0.3 * area.width()), int(area.center().y()));
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, click);
    REQUIRE(test::wait_until([&] { return inspected != SIZE_MAX; }, 30000));
    const auto& k = tab->result()->axes[0].values;
    const double k_clicked = view.range().x.from + (click.x() - area.left()) / area.width() *
                                                       (view.range().x.to - view.range().x.from);
    std::size_t nearest = 0;
    for (std::size_t i = 1; i < k.size(); ++i)
        if (std::abs(k[i] - k_clicked) < std::abs(k[nearest] - k_clicked)) nearest = i;
    CHECK(inspected == nearest);
    CHECK(window.inspector().systemText().contains("k ="));
    test::save_screenshot(window, "app_inspector");
    QAction* run = window.findChild<QToolBar*>()->actions().first();
    INFO(run->text().toStdString() << ": " << run->toolTip().toStdString());
    CHECK(run->isEnabled()); // Run stays available
}

namespace {

QDockWidget* dock_named(ui::MainWindow& window, const QString& name) {
    for (QDockWidget* d : window.findChildren<QDockWidget*>())
        if (d->objectName() == name) return d;
    return nullptr;
}

// Picks `label` in the study panel's analysis combo as a user does.
void choose_analysis(ui::MainWindow& window, const QString& label) {
    for (QComboBox* combo : window.studyPanel().findChildren<QComboBox*>()) {
        const int i = combo->findText(label);
        if (i < 0) continue;
        combo->setCurrentIndex(i);
        emit combo->activated(i);
        return;
    }
    FAIL("no analysis combo with " << label.toStdString());
}

// The window gives its picture the room: the study form whole (no sideways scrolling), no empty
// trajectory dock, the plot the largest part of the window's width and most of its height (it had
// about 500x400 of 1440x920 with the trajectory dock open and empty).
void check_layout(ui::MainWindow& window) {
    QScrollArea* study_scroll = nullptr;
    for (QScrollArea* area : window.findChildren<QScrollArea*>())
        if (area->widget() == &window.studyPanel()) study_scroll = area;
    REQUIRE(study_scroll);
    CHECK_FALSE(study_scroll->horizontalScrollBar()->isVisible());
    CHECK(study_scroll->viewport()->width() >= window.studyPanel().minimumSizeHint().width());
    const QSize plot = window.plotArea().size();
    INFO("window " << window.width() << "x" << window.height() << ", plot " << plot.width() << "x"
                   << plot.height() << ", study dock " << study_scroll->width());
    CHECK(plot.width() >= window.width() * 45 / 100);
    CHECK(plot.height() >= window.height() * 3 / 4);
}

} // namespace

TEST_CASE("a typed model's new bifurcation study runs as set up, in a window laid out for its picture",
          "[gui][app]") {
    for (const QSize size : {QSize(), QSize(1280, 800)}) {
        ui::MainWindow window; // its own default size, then a smaller screen's
        if (size.isValid()) window.resize(size);
        window.show();
        if (size.isValid()) CHECK(window.width() <= size.width()); // the docks' minimums fit the screen
        const QString tag = size.isValid() ? "_1280x800" : "";
        REQUIRE(test::wait_until([&] { return window.editorPanel().model() != nullptr; }, 5000));
        QDockWidget* inspector = dock_named(window, "trajectory");
        REQUIRE(inspector);
        CHECK_FALSE(inspector->isVisible()); // nothing to show yet
        check_layout(window);
        test::save_screenshot(window, "app_new_model" + tag);

        // Ueda's oscillator, typed; a bifurcation diagram chosen; Run, with nothing else set.
        window.editorPanel().setText("x'=y\ny'=-k*y-x^3+B*cos(t)\npar k=0.05,B=7.5\ninit x=1\ndone\n");
        REQUIRE(test::wait_until(
            [&] {
                return window.editorPanel().model() &&
                       window.editorPanel().model()->parameter_index("k") >= 0;
            },
            5000));
        choose_analysis(window, "Bifurcation diagram");
        test::wait_until([&] { return !window.studyPanel().hasErrors(); }, 10000);
        INFO(window.studyPanel().errorSummary().toStdString());
        REQUIRE_FALSE(window.studyPanel().hasErrors());
        const study::Study s = window.studyPanel().study();
        CHECK(s.bifurcation.section.period == "2*pi");
        REQUIRE(window.runStudy());
        REQUIRE(wait_for_result(window));
        ui::ResultTab* tab = window.plotArea().currentTab();
        CHECK(tab->result()->info.complete);
        CHECK(tab->title() == "Bifurcation diagram over k");
        CHECK(tab->figure()->title() == tab->title());
        CHECK(tab->figure()->xLabel() == "k");
        check_layout(window);
        test::save_screenshot(window, "app_new_bifurcation" + tag);

        // A click opens the inspector, whose charts keep their tick labels.
        auto* figure_view = dynamic_cast<ui::FigureResultView*>(&tab->view());
        REQUIRE(figure_view);
        ui::PlotView& view = figure_view->plotView();
        bool inspected = false;
        QObject::connect(&window.inspector(), &ui::TrajectoryInspector::inspected, [&] { inspected = true; });
        const QRectF area = view.plotArea();
        QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier,
                          QPoint(int(area.left() + 0.6 * area.width()), int(area.center().y())));
        REQUIRE(test::wait_until([&] { return inspected; }, 30000));
        CHECK(inspector->isVisible());
        test::save_screenshot(window, "app_new_inspector" + tag);
        for (ui::TrajectoryChart* chart :
             {window.inspector().timeSeries(), window.inspector().phasePortrait()}) {
            const test::ChartLabels labels = test::chart_labels(*chart->chart());
            INFO("y labels: " << labels.y.join(" | ").toStdString());
            CHECK(labels.y.size() >= 2);
            for (const QString& label : labels.y + labels.x)
                CHECK_FALSE(test::elided(label));
        }
    }
}

TEST_CASE("a model file's untitled study is titled by model, analysis and parameter", "[gui][app]") {
    ui::MainWindow window;
    window.show();
    REQUIRE(window.openFile(test::source_path("resources/models/duffing.ode")));
    REQUIRE(test::wait_until(
        [&] {
            return window.editorPanel().model() && window.editorPanel().model()->parameter_index("k") >= 0;
        },
        5000));
    choose_analysis(window, "Bifurcation diagram");
    test::wait_until([&] { return !window.studyPanel().hasErrors(); }, 10000);
    INFO(window.studyPanel().errorSummary().toStdString());
    REQUIRE_FALSE(window.studyPanel().hasErrors());
    study::Study s = window.studyPanel().study();
    CHECK(s.title.empty());
    CHECK(s.bifurcation.section.period == "2*pi/omega"); // b*cos(omega*t)
    // Few values, so that the run is quick: the title does not depend on them.
    s.sweep[0].count = 8;
    s.bifurcation.transient_sections = 16;
    s.bifurcation.recorded_sections = 8;
    window.studyPanel().setStudy(s);
    REQUIRE(window.runStudy());
    REQUIRE(wait_for_result(window));
    ui::ResultTab* tab = window.plotArea().currentTab();
    CHECK(tab->title() == QString::fromUtf8("duffing \u2014 bifurcation diagram over k"));
    CHECK(tab->figure()->title() == tab->title());
    CHECK(tab->figure()->yLabel() == "y1");
    test::save_screenshot(window, "app_model_file_title");
}
