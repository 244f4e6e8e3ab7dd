// Continuation branches in the window: a continuation study opened by itself, and "continue from
// here" on a diagram, drawn over it (stable solid, unstable dashed, labelled special points), hovered,
// undone, exported as PNG, SVG and CSV, and kept with the document: saved, reopened and recovered, and
// marking the window modified until saved (closing asks to save them). References
// derived here, not from the engine: the Brusselator's equilibrium (a, b/a) and its Hopf point b = 1 + a^2;
// the logistic map's fixed point 1 - 1/r, its multiplier 2 - r and so its period doubling at r = 3.
#include "duffing_reference.h"
#include "gui_test_support.h"
#include "ui/charts/trajectory_inspector.h"
#include "ui/editor/model_editor_panel.h"
#include "ui/plot/branch_painter.h"
#include "ui/plot/figure_painter.h"
#include "ui/plot/result_figure.h"
#include "ui/plot/saved_overlays.h"
#include "ui/shell/recovery_store.h"
#include "ui/views/branch_view.h"
#include "ui/views/plot_view.h"
#include "ui/window/branch_tab.h"
#include "ui/window/continuation_controller.h"
#include "ui/window/document_controller.h"
#include "ui/window/figure_result_view.h"
#include "ui/window/main_window.h"
#include "ui/window/messages_panel.h"
#include "ui/window/plot_area.h"
#include "ui/window/result_tab.h"
#include "ui/window/run_controller.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QWindow>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;
using test::PromptAnswer;

namespace {

// Whether the line of 2 px drawn through `at` in the overlay's colour covers a pixel there (the
// pixel or the one above or below it, as anti-aliasing splits a line between rows).
bool branch_coloured(const QImage& image, QPointF at, const QColor& colour) {
    for (int dy : {-1, 0, 1}) {
        const QColor c = image.pixelColor(int(std::lround(at.x())), int(std::lround(at.y())) + dy);
        if (std::abs(c.red() - colour.red()) < 40 && std::abs(c.green() - colour.green()) < 40 &&
            std::abs(c.blue() - colour.blue()) < 40)
            return true;
    }
    return false;
}

// The fraction of pixels along a horizontal run of the image that carry the colour.
double coloured_fraction(const QImage& image, double y, double x0, double x1, const QColor& colour) {
    int hits = 0, total = 0;
    for (double x = x0; x <= x1; x += 1.0, ++total)
        if (branch_coloured(image, QPointF(x, y), colour)) ++hits;
    return total ? double(hits) / total : 0.0;
}

const plot::OverlayPoint* labelled(const plot::BranchOverlay& o, const QString& label) {
    for (const auto& p : o.points)
        if (p.label == label) return &p;
    return nullptr;
}

QString read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// A main window at the size every screenshot here is taken at, and the steps the tests share.
struct BranchWindow {
    ui::MainWindow window;

    BranchWindow() {
        window.resize(1400, 900);
        window.show();
    }

    // Opens a continuation study: its tab, once its branches are in.
    ui::BranchTab& openBranches(const QString& source) {
        REQUIRE(window.openFile(test::source_path(source)));
        ui::BranchTab* tab = window.plotArea().currentBranchTab();
        REQUIRE(tab);
        REQUIRE(test::wait_until([&] { return !tab->overlays()->empty(); }, 60000));
        return *tab;
    }

    // Runs the study in the panel: its diagram or map, finished.
    ui::ResultTab& runStudy(int timeout_ms = 120000) {
        REQUIRE(window.runStudy());
        REQUIRE(test::wait_until(
            [&] {
                return !window.runs().running() && window.plotArea().currentTab() &&
                       window.plotArea().currentTab()->result();
            },
            timeout_ms));
        ui::ResultTab& tab = *window.plotArea().currentTab();
        // The view takes the data's range at its next repaint, coalesced after the last block: tests
        // that compare ranges read it after that.
        if (tab.figure())
            REQUIRE(
                test::wait_until([&] { return plotView(tab).range() == tab.figure()->fullRange(); }, 5000));
        return tab;
    }

    // Opens a study file (a path under the source tree, or an absolute one) and runs it.
    ui::ResultTab& runDiagram(const QString& source, int timeout_ms = 120000) {
        REQUIRE(window.openFile(QFileInfo(source).isAbsolute() ? source : test::source_path(source)));
        return runStudy(timeout_ms);
    }

    static ui::PlotView& plotView(ui::ResultTab& tab) {
        return static_cast<ui::FigureResultView&>(tab.view()).plotView();
    }

    // Continues the orbit through `data` of the tab's picture; true when the branch came.
    bool continueAt(ui::ResultTab& tab, QPointF data, int timeout_ms = 60000) {
        QSignalSpy done(&window.continuations(), &ui::ContinuationController::finished);
        tab.continueAt(data);
        return test::wait_until([&] { return done.count() == 1; }, timeout_ms) && done.first().at(0).toBool();
    }

    // The title as the window system shows it: Qt turns the title's "[*]" into "*" while the window is
    // modified, and drops it otherwise.
    QString shownTitle() const { return window.windowHandle()->title(); }
};

} // namespace

TEST_CASE_METHOD(BranchWindow,
                 "a continuation study opens as a tab of its branches, with the Hopf point at b = 1 + a^2",
                 "[gui][branches]") {
    ui::BranchTab* tab = &openBranches("resources/studies/equilibria/brusselator_continuation.json");
    const plot::BranchOverlay& branch = tab->overlays()->front();
    const double a = 1.5, hopf = 1 + a * a;
    const plot::OverlayPoint* h = labelled(branch, "H");
    REQUIRE(h);
    CHECK(h->parameter == Approx(hopf).margin(1e-6));
    CHECK(h->state[0] == Approx(a).margin(1e-6));
    CHECK(h->state[1] == Approx(hopf / a).margin(1e-6));

    // y: the state x, constant a along the branch: a horizontal line, solid left of H, dashed right.
    REQUIRE(tab->quantityBox().currentText() == "x");
    CHECK(window.editorPanel().text().contains("x'=a-(b+1)*x+x^2*y")); // the study's inline model
    ui::BranchView& view = tab->view();
    QApplication::processEvents();
    const QImage shot = test::save_screenshot(window, "branches_brusselator_window");
    const QImage image = view.grab().toImage();
    test::save_screenshot(view, "branches_brusselator_view");
    const QRectF plot = view.plotArea();
    const auto at_hopf = plot::data_to_pixel(plot, view.range(), QPointF(hopf, a));
    REQUIRE(at_hopf);
    const QColor colour = plot::overlay_colour(0);
    const auto left = plot::data_to_pixel(plot, view.range(), QPointF(branch.points.front().parameter, a));
    const auto right = plot::data_to_pixel(plot, view.range(), QPointF(branch.points.back().parameter, a));
    CHECK(coloured_fraction(image, at_hopf->y(), left->x() + 2, at_hopf->x() - 12, colour) > 0.97);
    const double dashed = coloured_fraction(image, at_hopf->y(), at_hopf->x() + 12, right->x() - 2, colour);
    CHECK(dashed > 0.35);
    CHECK(dashed < 0.8);

    // The H label sits beside its ring at the Hopf point's x pixel, inside the plot.
    const auto labels = plot::place_branch_labels(plot, view.range(), {view.figure()->xName(), "x"},
                                                  view.figure()->overlays(), {view.font(), Qt::white}, &view);
    REQUIRE(labels.size() == 1);
    CHECK(labels[0].text == "H");
    CHECK(labels[0].anchor.x() == Approx(at_hopf->x()).margin(0.5));
    CHECK(plot.contains(labels[0].box));
    CHECK(QLineF(labels[0].box.center(), labels[0].anchor).length() < 30);

    // Hovering the Hopf point: its eigenvalues, a pair on the imaginary axis, and the stability.
    QSignalSpy hovered(&view, &ui::BranchView::hovered);
    QTest::mouseMove(&view, at_hopf->toPoint());
    REQUIRE(hovered.count() >= 1);
    const QString text = hovered.last().at(0).toString();
    CHECK(text.contains("H "));
    CHECK(text.contains("eigenvalues"));
    CHECK(text.contains("b = 3.25"));

    // Exports: the SVG holds the branch's path and its label, the CSV every point.
    QTemporaryDir dir;
    REQUIRE(tab->exportSvg(dir.filePath("b.svg"), QSize(900, 600)).isEmpty());
    const QString svg = read_all(dir.filePath("b.svg"));
    CHECK(svg.contains("<path"));
    CHECK(svg.contains(colour.name()));
    CHECK(svg.contains(">H<"));
    REQUIRE(tab->exportCsv(dir.filePath("b.csv")).isEmpty());
    const QStringList rows = read_all(dir.filePath("b.csv")).split('\n', Qt::SkipEmptyParts);
    CHECK(rows.size() == int(branch.points.size()) + 1);
    CHECK(rows[0] == "overlay,kind,point,parameter,second_parameter,x,y,stable,label");
    CHECK(rows.filter(",H").size() == 1);
    REQUIRE(tab->exportPng(dir.filePath("b.png"), QSize(1200, 800)).isEmpty());
    const QImage png(dir.filePath("b.png"));
    png.save(QStringLiteral(BIFSCOPE_SCREENSHOT_DIR) + "/branches_brusselator_export.png");
    CHECK(png.size() == QSize(1200, 800));
}

TEST_CASE_METHOD(
    BranchWindow,
    "continue from here on the logistic diagram draws the fixed point's branch through the click",
    "[gui][branches]") {
    ui::ResultTab* tab = &runDiagram("resources/studies/logistic_bifurcation.json");
    ui::PlotView& view = plotView(*tab);

    // The click: the stable fixed point at r = 2.8, on the diagram's own points.
    const double r = 2.8, x = 1 - 1 / r;
    QSignalSpy done(&window.continuations(), &ui::ContinuationController::finished);
    const QPointF click = plot::FigurePainter::toPixel(view.plotArea(), view.range(), r, x);
    view.setFocus();
    QTest::mouseMove(&view, click.toPoint());
    QTest::keyClick(&view, Qt::Key_B);
    REQUIRE(test::wait_until([&] { return done.count() == 1; }, 60000));
    REQUIRE(tab->branches()->size() == 1);
    const plot::BranchOverlay& branch = tab->branches()->front();
    CHECK(branch.name == "orbit of period 1");

    // Through the clicked point: between the two points that bracket r, x interpolates to 1 - 1/r.
    bool bracketed = false;
    for (std::size_t i = 1; i < branch.points.size(); ++i) {
        const auto &p = branch.points[i - 1], &q = branch.points[i];
        if ((p.parameter - r) * (q.parameter - r) > 0) continue;
        const double t = (r - p.parameter) / (q.parameter - p.parameter);
        CHECK(p.state[0] + t * (q.state[0] - p.state[0]) == Approx(x).margin(2e-3));
        bracketed = true;
    }
    CHECK(bracketed);
    for (const auto& p : branch.points) {
        CHECK(p.state[0] == Approx(1 - 1 / p.parameter).margin(1e-8));
        if (std::abs(p.parameter - 3) > 1e-4) CHECK(p.stable == (p.parameter < 3)); // |2 - r| < 1 below r = 3
    }
    const plot::OverlayPoint* pd = labelled(branch, "PD");
    REQUIRE(pd);
    CHECK(pd->parameter == Approx(3.0).margin(1e-7));

    // Hover at the PD point: the multiplier -1 and the label.
    const QPointF at_pd =
        plot::FigurePainter::toPixel(view.plotArea(), view.range(), pd->parameter, pd->state[0]);
    QSignalSpy hovered(&view, &ui::PlotView::hovered);
    QTest::mouseMove(&view, at_pd.toPoint());
    REQUIRE(hovered.count() >= 1);
    const QString text = hovered.last().at(0).toString();
    CHECK(text.contains("PD"));
    CHECK((text.contains("multipliers -1") || text.contains("multipliers -0.99999")));
    QApplication::processEvents();
    test::save_screenshot(window, "branches_logistic_window");

    // The exported picture: the branch solid below r = 3 (over the diagram's own points), dashed above.
    plot::ResultFigure& figure = *tab->figure();
    const QSize size(1200, 760);
    const QImage image = tab->renderImage(size);
    image.save(QStringLiteral(BIFSCOPE_SCREENSHOT_DIR) + "/branches_logistic_export.png");
    plot::PaintOptions options;
    const plot::FigureLayout layout =
        plot::FigurePainter(figure, options).layout(QRectF(QPointF(0, 0), size), view.range(), &image);
    const QColor colour = plot::overlay_colour(0);
    int solid = 0, solid_total = 0, dashed = 0, dashed_total = 0;
    for (double s = 2.55; s < 3.5; s += 0.002) {
        if (std::abs(s - 3) < 0.03) continue; // the PD ring and its label
        const QPointF px = plot::FigurePainter::toPixel(layout.plot, view.range(), s, 1 - 1 / s);
        const bool hit = branch_coloured(image, px, colour);
        (s < 3 ? solid : dashed) += hit;
        ++(s < 3 ? solid_total : dashed_total);
    }
    CHECK(double(solid) / solid_total > 0.97);
    CHECK(double(dashed) / dashed_total > 0.3);
    CHECK(double(dashed) / dashed_total < 0.85);
    const auto labels = plot::place_branch_labels(layout.plot, view.range(), {"r", "x"}, *tab->branches(),
                                                  {options.font, Qt::white}, &image);
    REQUIRE(labels.size() == 1);
    CHECK(labels[0].text == "PD");
    CHECK(labels[0].anchor.x() ==
          Approx(plot::FigurePainter::toPixel(layout.plot, view.range(), 3.0, 2.0 / 3).x()).margin(0.5));
    CHECK(layout.plot.contains(labels[0].box));

    // SVG and CSV exports carry the branch.
    QTemporaryDir dir;
    REQUIRE(tab->writeSvg(dir.filePath("d.svg"), QSize(900, 600)));
    const QString svg = read_all(dir.filePath("d.svg"));
    CHECK(svg.contains(colour.name()));
    CHECK(svg.contains(">PD<"));
    QString error;
    REQUIRE(tab->writeCsv(dir.filePath("d.csv"), error));
    const QStringList rows =
        read_all(ui::ResultTab::branchCsvPath(dir.filePath("d.csv"))).split('\n', Qt::SkipEmptyParts);
    CHECK(rows.size() == int(branch.points.size()) + 1);
    CHECK(rows.filter(",PD").size() == 1);

    // Removing the branch is undoable.
    tab->removeBranch(0);
    CHECK(tab->branches()->empty());
    CHECK(view.branches()->empty());
    tab->branchHistory().undo();
    CHECK(tab->branches()->size() == 1);
    CHECK(view.branches()->size() == 1);

    // From the trajectory inspector: its system's orbit, a second branch over the same diagram.
    const auto system = tab->figure()->systemAt(2.6, 1 - 1 / 2.6);
    REQUIRE(system);
    window.inspector().inspect(tab->study(), *system);
    REQUIRE(!window.inspector().continueButton()->isHidden()); // the dock itself opens on a click only
    window.inspector().continueButton()->click();
    REQUIRE(test::wait_until([&] { return done.count() == 2; }, 60000));
    REQUIRE(tab->branches()->size() == 2);
    const plot::BranchOverlay& second = (*tab->branches())[1];
    CHECK(std::any_of(second.points.begin(), second.points.end(),
                      [](const auto& p) { return std::abs(p.parameter - 2.6) < 0.05; }));
    for (const auto& p : second.points)
        CHECK(p.state[0] == Approx(1 - 1 / p.parameter).margin(1e-8));
}

TEST_CASE_METHOD(BranchWindow, "continue from here on the forced Duffing diagram follows its period-1 orbit",
                 "[gui][branches]") {
    ui::ResultTab* tab = &runDiagram("tests/ui/data/duffing_period1.json");
    ui::PlotView& view = plotView(*tab);

    // The click: the diagram's own section point at k = 0.47, where the attractor has period 1.
    const double k = 0.47, b = 0.3;
    const double y1 = test::duffing_stroboscopic_y1(k, b, 136);
    REQUIRE(continueAt(*tab, QPointF(k, y1), 120000));
    REQUIRE(tab->branches()->size() == 1);
    const plot::BranchOverlay& branch = tab->branches()->front();
    CHECK(branch.name == "orbit of period 1");
    REQUIRE(branch.points.size() > 10);
    CHECK(branch.points.front().parameter == Approx(0.44).margin(1e-9));
    CHECK(branch.points.back().parameter == Approx(0.5).margin(1e-9));

    // Every few points, y1 against the attractor's point integrated here by RK4 (the orbit is stable
    // over the whole diagram: it is what the diagram shows).
    for (std::size_t i = 0; i < branch.points.size(); i += branch.points.size() / 5) {
        const auto& p = branch.points[i];
        CHECK(p.state[0] == Approx(test::duffing_stroboscopic_y1(p.parameter, b, 136)).margin(1e-5));
        CHECK(p.stable);
    }

    // Hover on the branch at its first point: the Floquet multipliers, inside the unit circle.
    const auto& p = branch.points[branch.points.size() / 2];
    const QPointF at = plot::FigurePainter::toPixel(view.plotArea(), view.range(), p.parameter, p.state[0]);
    QSignalSpy hovered(&view, &ui::PlotView::hovered);
    QTest::mouseMove(&view, at.toPoint());
    REQUIRE(hovered.count() >= 1);
    const QString text = hovered.last().at(0).toString();
    CHECK(text.contains("multipliers"));
    CHECK(text.contains("stable"));
    CHECK(text.contains("k = "));
    QApplication::processEvents();
    test::save_screenshot(window, "branches_duffing_window");
}

TEST_CASE_METHOD(
    BranchWindow,
    "the Lorenz Hopf curve is drawn over a (rho, sigma) map where rho = sigma (sigma + beta + 3) / "
    "(sigma - beta - 1)",
    "[gui][branches]") {
    ui::ResultTab* tab = &runDiagram("tests/ui/data/lorenz_rho_sigma_map.json", 180000);
    // The largest Lyapunov exponent under the curve.
    auto* quantity = tab->findChild<QComboBox*>();
    REQUIRE(quantity);
    quantity->setCurrentText("lambda_max");
    REQUIRE(tab->figure()->yLabel() == "sigma");
    QSignalSpy done(&window.continuations(), &ui::ContinuationController::finished);
    REQUIRE(
        window.overlayStudy(tab, test::source_path("resources/studies/equilibria/lorenz_hopf_curve.json")));
    REQUIRE(test::wait_until([&] { return done.count() == 1; }, 120000));
    // C+ and C- (the branch from C+ passes the pitchfork at rho = 1 onto C-) have their Hopf points
    // at the same (rho, sigma): their curves coincide, the last drawn on top.
    std::vector<QColor> colours;
    for (std::size_t i = 0; i < tab->branches()->size(); ++i)
        if ((*tab->branches())[i].kind == plot::OverlayKind::Curve)
            colours.push_back(plot::overlay_colour(i));
    REQUIRE(!colours.empty());

    // The curve's pixels lie on the closed form's: sampled at sigma values, the pixel at the closed
    // form's rho carries a curve's colour.
    const double beta = 8.0 / 3;
    ui::PlotView& view = plotView(*tab);
    const QSize size(1200, 800);
    const QImage image = tab->renderImage(size);
    image.save(QStringLiteral(BIFSCOPE_SCREENSHOT_DIR) + "/branches_lorenz_map_export.png");
    const plot::FigureLayout layout =
        plot::FigurePainter(*tab->figure(), {}).layout(QRectF(QPointF(0, 0), size), view.range(), &image);
    int hits = 0, total = 0;
    for (double sigma = 6; sigma < 39; sigma += 0.5) {
        const double rho = sigma * (sigma + beta + 3) / (sigma - beta - 1);
        if (rho > 99) continue;
        const QPointF px = plot::FigurePainter::toPixel(layout.plot, view.range(), rho, sigma);
        bool hit = false;
        for (int dx : {-1, 0, 1})
            for (const QColor& colour : colours)
                hit = hit || branch_coloured(image, px + QPointF(dx, 0), colour);
        hits += hit;
        ++total;
    }
    CHECK(total > 20);
    CHECK(hits == total);
    QApplication::processEvents();
    test::save_screenshot(window, "branches_lorenz_map_window");
}

TEST_CASE_METHOD(BranchWindow,
                 "the Lorenz equilibrium branches: every special point labelled once, no label over another",
                 "[gui][branches]") {
    ui::BranchTab* tab = &openBranches("resources/studies/equilibria/lorenz_continuation.json");
    ui::BranchView& view = tab->view();
    QApplication::processEvents();
    test::save_screenshot(window, "branches_lorenz_continuation_window");

    // Hopf points of C+- at rho = sigma (sigma + beta + 3) / (sigma - beta - 1), the pitchfork at 1.
    const double sigma = 10, beta = 8.0 / 3, hopf = sigma * (sigma + beta + 3) / (sigma - beta - 1);
    int hopf_points = 0;
    for (const auto& o : *tab->overlays())
        for (const auto& p : o.points)
            if (p.label == "H") {
                CHECK(p.parameter == Approx(hopf).margin(1e-6));
                ++hopf_points;
            }
    CHECK(hopf_points >= 2);
    const auto labels = plot::place_branch_labels(view.plotArea(), view.range(), view.figure()->axes(),
                                                  view.figure()->overlays(), {view.font(), Qt::white}, &view);
    // H on C+ and on C-, BP and LP at the pitchfork: each once, though three branches pass there.
    REQUIRE(labels.size() == 4);
    CHECK(window.width() <= 1400); // the summary above the picture does not widen the window
    for (std::size_t i = 0; i < labels.size(); ++i) {
        CHECK(view.plotArea().contains(labels[i].box));
        for (std::size_t j = i + 1; j < labels.size(); ++j) {
            INFO(labels[i].text.toStdString() << " and " << labels[j].text.toStdString());
            CHECK_FALSE(labels[i].box.intersects(labels[j].box));
        }
    }
}

namespace {

// Equal to the last bit (the document keeps every digit), the seed study included.
void check_same_overlays(const plot::Overlays& a, const plot::Overlays& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        const plot::BranchOverlay &o = a[i], &q = b[i];
        CHECK(o.name == q.name);
        CHECK(o.kind == q.kind);
        CHECK(o.parameter == q.parameter);
        CHECK(o.second_parameter == q.second_parameter);
        CHECK(o.states == q.states);
        REQUIRE(o.points.size() == q.points.size());
        for (std::size_t k = 0; k < o.points.size(); ++k) {
            const plot::OverlayPoint &p = o.points[k], &r = q.points[k];
            INFO("overlay " << i << ", point " << k);
            CHECK(p.parameter == r.parameter);
            CHECK((p.second == r.second || (std::isnan(p.second) && std::isnan(r.second))));
            CHECK(p.state == r.state);
            CHECK(p.stable == r.stable);
            CHECK(p.label == r.label);
            CHECK(p.details == r.details);
        }
        REQUIRE(bool(o.seed) == bool(q.seed));
        if (o.seed)
            CHECK(study::write_equilibrium_study_json(*o.seed) ==
                  study::write_equilibrium_study_json(*q.seed));
    }
}

// What the hover says at a branch's point (the mouse comes from the view's corner: a move to where it
// already is would say nothing).
QString hover_at(ui::PlotView& view, const plot::OverlayPoint& p) {
    QTest::mouseMove(&view, QPoint(1, 1));
    QSignalSpy hovered(&view, &ui::PlotView::hovered);
    QTest::mouseMove(
        &view,
        plot::FigurePainter::toPixel(view.plotArea(), view.range(), p.parameter, p.state[0]).toPoint());
    return hovered.isEmpty() ? QString() : hovered.last().at(0).toString();
}

// The count of pixels where two pictures differ.
int differing_pixels(const QImage& a, const QImage& b) {
    if (a.size() != b.size()) return a.width() * a.height();
    const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int row = 0; row < x.height(); ++row)
        for (int col = 0; col < x.width(); ++col)
            n += x.pixel(col, row) != y.pixel(col, row);
    return n;
}

// The overlays alone, drawn as a figure draws them over a plot of `view` (the diagram under them is
// a run's again, and its colour bar's labels, which move the plot's edge, may differ).
QImage branches_picture(const plot::Overlays& overlays, const plot::PlotRange& view) {
    QImage image(QSize(1000, 640), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    plot::paint_branches(painter, QRectF(50, 20, 920, 590), view, {"r", "x"}, overlays, {QFont(), Qt::white});
    return image;
}

int non_white_pixels(const QImage& image) {
    return differing_pixels(image, [&] {
        QImage white(image.size(), image.format());
        white.fill(Qt::white);
        return white;
    }());
}

} // namespace

TEST_CASE("a saved document reopens with its branches drawn as before; undo, redo and recovery keep them",
          "[gui][branches][document]") {
    QTemporaryDir dir;
    const QString saved = dir.filePath("logistic_with_branches.json");
    const QSize size(1200, 760);
    const double r = 2.8;
    plot::Overlays before;
    plot::PlotRange range_before;
    QString hover_before;
    {
        BranchWindow first;
        ui::ResultTab& tab = first.runDiagram("resources/studies/logistic_bifurcation.json");
        REQUIRE(first.continueAt(tab, QPointF(r, 1 - 1 / r)));
        REQUIRE(tab.branches()->size() == 1);
        before = *tab.branches();
        CHECK(first.window.documents().branches() == tab.branches()); // the document's, as drawn
        tab.renderImage(size).save(QStringLiteral(BIFSCOPE_SCREENSHOT_DIR) + "/branches_saved_export.png");
        range_before = BranchWindow::plotView(tab).range();
        const plot::OverlayPoint* pd = labelled(before.front(), "PD");
        REQUIRE(pd);
        hover_before = hover_at(BranchWindow::plotView(tab), *pd);
        CHECK(hover_before.contains("PD"));
        REQUIRE(first.window.documents().saveStudy(saved));
        first.window.close();
    }
    const QString document = read_all(saved);
    CHECK(document.contains("\"branches\""));
    CHECK(document.contains("\"orbit_continuation\"")); // the seed, for "continue" to go on

    // Reopened in a fresh window: the same overlays, the same picture, the same hover.
    BranchWindow second;
    ui::ResultTab& tab = second.runDiagram(saved);
    check_same_overlays(*tab.branches(), before);
    CHECK(second.window.messagesPanel().toPlainText().contains("holds 1 branch"));
    tab.renderImage(size).save(QStringLiteral(BIFSCOPE_SCREENSHOT_DIR) + "/branches_reopened_export.png");
    // Drawn as before: on the same axes, the same pixels.
    ui::PlotView& view = BranchWindow::plotView(tab);
    CHECK(view.range() == range_before);
    const QImage drawn_before = branches_picture(before, range_before);
    CHECK(non_white_pixels(drawn_before) > 1000);
    CHECK(differing_pixels(branches_picture(*tab.branches(), view.range()), drawn_before) == 0);
    CHECK(view.branches() == tab.branches());
    CHECK(hover_at(view, *labelled(tab.branches()->front(), "PD")) == hover_before);
    QApplication::processEvents();
    test::save_screenshot(second.window, "branches_reopened_window");

    // Removing the reopened branch, undoing and redoing it: the document follows the picture.
    ui::DocumentController& documents = second.window.documents();
    tab.removeBranch(0);
    CHECK(tab.branches()->empty());
    CHECK(view.branches()->empty());
    CHECK(documents.branches()->empty());
    tab.branchHistory().undo();
    check_same_overlays(*documents.branches(), before);
    CHECK(view.branches()->size() == 1);
    tab.branchHistory().redo();
    CHECK(documents.branches()->empty());
    tab.branchHistory().undo();
    REQUIRE(tab.branches()->size() == 1);

    // The reopened branch's seed continues it again: run over the diagram, the same branch.
    const auto seed = tab.branches()->front().seed;
    REQUIRE(seed);
    const auto resolved = study::resolve_equilibrium_study(*seed, tab.study()->base_directory);
    REQUIRE(resolved.resolved);
    QSignalSpy done(&second.window.continuations(), &ui::ContinuationController::finished);
    second.window.continuations().overlay(&tab, resolved.resolved);
    REQUIRE(test::wait_until([&] { return done.count() == 1; }, 60000));
    REQUIRE(tab.branches()->size() == 2);
    check_same_overlays({tab.branches()->back()}, before);

    // Not saved: the recovery snapshot holds both, and restored into another window they are drawn
    // again.
    const plot::Overlays unsaved = *tab.branches();
    REQUIRE(unsaved.size() == 2);
    const plot::PlotRange range_unsaved = BranchWindow::plotView(tab).range();
    REQUIRE(second.window.recovery().saveNow() == ui::RecoveryStore::SaveResult::Written);
    QFile snapshot_file(second.window.recovery().sessionFile());
    REQUIRE(snapshot_file.open(QIODevice::ReadOnly));
    const QJsonObject snapshot = QJsonDocument::fromJson(snapshot_file.readAll()).object();
    snapshot_file.close();
    second.window.recovery().markClean();
    CHECK(snapshot.value("study_json").toString().contains("\"branches\""));
    BranchWindow third;
    third.window.documents().restore(
        snapshot.value("model_text").toString(), snapshot.value("model_path").toString(),
        snapshot.value("study_json").toString(), snapshot.value("study_path").toString());
    ui::ResultTab& recovered = third.runStudy();
    check_same_overlays(*recovered.branches(), unsaved);
    CHECK(BranchWindow::plotView(recovered).range() == range_unsaved);
    CHECK(differing_pixels(branches_picture(*recovered.branches(), range_unsaved),
                           branches_picture(unsaved, range_unsaved)) == 0);
}

TEST_CASE("a document with a damaged branch opens with a message saying where, and its other branches",
          "[gui][branches][document]") {
    // The logistic map's fixed point 1 - 1/r, stable while its multiplier 2 - r is inside the unit
    // circle: a branch written here, not computed.
    plot::BranchOverlay fixed_point;
    fixed_point.name = "orbit of period 1";
    fixed_point.parameter = "r";
    fixed_point.states = {"x"};
    for (double r = 2.5; r <= 3.5 + 1e-9; r += 0.05) {
        plot::OverlayPoint p;
        p.parameter = r;
        p.state = {1 - 1 / r};
        p.stable = r < 3;
        p.details = QStringLiteral("multipliers %1").arg(2 - r);
        fixed_point.points.push_back(p);
    }
    fixed_point.points[10].label = "PD";
    QTemporaryDir dir;
    const QString path = dir.filePath("damaged.json");
    {
        BranchWindow writer;
        REQUIRE(writer.window.openFile(test::source_path("resources/studies/logistic_bifurcation.json")));
        writer.window.documents().setBranches(
            std::make_shared<const plot::Overlays>(plot::Overlays{fixed_point}));
        REQUIRE(writer.window.documents().saveStudy(path));
    }
    // A branch whose second point's parameter is text, before the good one.
    QString text = read_all(path);
    const QString list = QStringLiteral("\"overlays\": [");
    REQUIRE(text.contains(list));
    text.replace(list, list + R"({"name": "broken", "kind": "branch", "parameter": "r", "states": ["x"],
        "points": [{"parameter": 2.5, "state": [0.6]}, {"parameter": "2.6", "state": [0.61]}]},)");
    {
        QFile out(path);
        REQUIRE(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(text.toUtf8());
    }

    BranchWindow reader;
    REQUIRE(reader.window.openFile(path));
    const QString messages = reader.window.messagesPanel().toPlainText();
    test::save_screenshot(reader.window, "branches_damaged_document_opened");
    CHECK(messages.contains("branches.overlays[0].points[1].parameter: expected a number, got a string"));
    CHECK(messages.contains("the branch 'broken' cannot be read and is left out"));
    CHECK(reader.window.messagesPanel().count(ui::MessagesPanel::Level::Error) >= 1);
    ui::ResultTab& tab = reader.runStudy();
    check_same_overlays(*tab.branches(), {fixed_point});
    QApplication::processEvents();
    test::save_screenshot(reader.window, "branches_damaged_document_window");
}

TEST_CASE_METHOD(BranchWindow,
                 "a branch added or removed marks the window modified until the study is saved or the change "
                 "undone; closing, opening or a new model asks to save it",
                 "[gui][branches][document]") {
    QTemporaryDir dir;
    const QString path = dir.filePath("logistic_modified.json");
    const ui::DocumentController& documents = window.documents();
    ui::ResultTab& tab = runDiagram("resources/studies/logistic_bifurcation.json");
    // Opened and run: as on disk.
    CHECK_FALSE(window.isWindowModified());
    CHECK(window.windowTitle().contains("[*]"));
    CHECK(shownTitle() == window.windowTitle().remove("[*]"));

    // A branch continued over the diagram: the document's, not saved.
    const double r = 2.8;
    REQUIRE(continueAt(tab, QPointF(r, 1 - 1 / r)));
    REQUIRE(tab.branches()->size() == 1);
    CHECK(window.isWindowModified());
    CHECK(documents.state().branches_modified);
    CHECK_FALSE(documents.state().model_modified);
    CHECK(shownTitle() == window.windowTitle().replace("[*]", "*"));
    // (The offscreen platform draws no title bar: the title is checked as text above.)
    QApplication::processEvents();
    test::save_screenshot(window, "branches_added_modified_window");

    // Saved with the study: clean. Removed: modified; undone back to the saved list: clean; redone:
    // modified again.
    REQUIRE(window.documents().saveStudy(path));
    CHECK_FALSE(window.isWindowModified());
    CHECK(shownTitle() == window.windowTitle().remove("[*]"));
    const plot::Overlays saved = *tab.branches();
    tab.removeBranch(0);
    CHECK(window.isWindowModified());
    tab.branchHistory().undo();
    CHECK_FALSE(window.isWindowModified());
    tab.branchHistory().redo();
    CHECK(window.isWindowModified());
    CHECK(shownTitle() == window.windowTitle().replace("[*]", "*"));

    // Another study, a new model, closing: each asks first; Cancel keeps the document as it is.
    {
        PromptAnswer cancel(QMessageBox::Cancel);
        CHECK_FALSE(window.openFile(test::source_path("resources/studies/logistic_bifurcation.json")));
        CHECK(cancel.asked);
        CHECK(cancel.text.contains("branches"));
        CHECK(cancel.text.contains("logistic_modified.json"));
    }
    {
        PromptAnswer cancel(QMessageBox::Cancel);
        CHECK_FALSE(window.documents().newModel());
        CHECK(cancel.asked);
    }
    (void)test::cancelled_close(window);
    CHECK(window.isVisible());
    CHECK(documents.state().study_path == QFileInfo(path).absoluteFilePath());
    CHECK(documents.branches()->empty());
    CHECK(window.isWindowModified());

    // Undone back to the saved branch: closing asks nothing.
    tab.branchHistory().undo();
    CHECK_FALSE(window.isWindowModified());
    {
        PromptAnswer none(QMessageBox::Cancel);
        CHECK(window.close());
        CHECK_FALSE(none.asked);
    }

    // Shown again with a second branch (the first's copy): Save in the question writes both to the
    // study file the document came from, and the window closes clean.
    window.show();
    tab.addBranches(saved);
    REQUIRE(tab.branches()->size() == 2);
    CHECK(window.isWindowModified());
    {
        PromptAnswer save(QMessageBox::Save);
        CHECK(window.close());
        CHECK(save.asked);
    }
    CHECK_FALSE(window.isWindowModified());
    const plot::DocumentOverlays written = plot::overlays_of_document(read_all(path));
    CHECK(written.errors.isEmpty());
    check_same_overlays(written.overlays, *tab.branches());

    // Discard: a new model without the branches, clean.
    window.show();
    tab.removeBranch(0);
    CHECK(window.isWindowModified());
    {
        PromptAnswer discard(QMessageBox::Discard);
        CHECK(window.documents().newModel());
        CHECK(discard.asked);
    }
    CHECK(documents.branches()->empty());
    CHECK_FALSE(window.isWindowModified());
    CHECK(shownTitle() == "untitled.ode — Bifscope");
    CHECK(plot::overlays_of_document(read_all(path)).overlays.size() == 2); // the file as saved
}

TEST_CASE("recovered branches are unsaved work: the window is modified and closing asks",
          "[gui][branches][document]") {
    plot::BranchOverlay fixed_point;
    fixed_point.name = "orbit of period 1";
    fixed_point.parameter = "r";
    fixed_point.states = {"x"};
    for (double r = 2.5; r <= 3.5 + 1e-9; r += 0.25) {
        plot::OverlayPoint p;
        p.parameter = r;
        p.state = {1 - 1 / r};
        p.stable = r < 3;
        fixed_point.points.push_back(p);
    }
    BranchWindow writer;
    REQUIRE(writer.window.openFile(test::source_path("resources/studies/logistic_bifurcation.json")));
    writer.window.documents().setBranches(
        std::make_shared<const plot::Overlays>(plot::Overlays{fixed_point}));
    CHECK(writer.window.isWindowModified());
    const QString json = writer.window.documents().documentJson(writer.window.documents().studyForRun());
    writer.window.documents().setBranches(nullptr); // back to the file's (none): clean
    CHECK_FALSE(writer.window.isWindowModified());

    BranchWindow restored;
    ui::DocumentController& documents = restored.window.documents();
    documents.restore(writer.window.editorPanel().text(), QString(), json, QString());
    REQUIRE(documents.branches()->size() == 1);
    CHECK(documents.state().branches_modified);
    CHECK(restored.window.isWindowModified());
    // The model saved alone leaves the branches unsaved: the window stays modified.
    restored.window.editorPanel().document()->setModified(false);
    CHECK(restored.window.isWindowModified());
    PromptAnswer cancel(QMessageBox::Cancel);
    CHECK_FALSE(restored.window.close());
    CHECK(cancel.asked);
    CHECK(cancel.text.contains("branches"));
    CHECK_FALSE(cancel.text.contains("untitled.ode")); // the model is not what is unsaved
}
