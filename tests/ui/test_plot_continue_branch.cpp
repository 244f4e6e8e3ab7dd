// "Continue this branch" on a branch reopened from a saved document, and from the right-click menu of a
// continuation study's own tab: the continuation study kept with the branch runs again from the
// branch's last point and its branch is drawn beside it. On the logistic
// map x -> r x (1 - x), whose fixed point is x = 1 - 1/r for every r and loses stability at r = 3
// (multiplier 2 - r = -1: a period doubling), closed forms that the continued branch must follow.
#include "engine/study/equilibrium_study.h"
#include "gui_test_support.h"
#include "ui/plot/saved_overlays.h"
#include "ui/views/branch_view.h"
#include "ui/window/branch_tab.h"
#include "ui/window/continuation_controller.h"
#include "ui/window/continuation_seed.h"
#include "ui/window/document_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/messages_panel.h"
#include "ui/window/plot_area.h"
#include "ui/window/result_tab.h"
#include "ui/window/run_controller.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

using namespace bif;

namespace {

ui::ResultTab& run_diagram(ui::MainWindow& window, const QString& path) {
    REQUIRE(window.openFile(path));
    REQUIRE(window.runStudy());
    REQUIRE(test::wait_until(
        [&] {
            return !window.runs().running() && window.plotArea().currentTab() &&
                   window.plotArea().currentTab()->result();
        },
        120000));
    return *window.plotArea().currentTab();
}

QString read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool write_all(const QString& path, const QString& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text.toUtf8()) >= 0;
}

double parameter_of(const study::EquilibriumStudy& s, const std::string& name) {
    for (const auto& [n, v] : s.parameters)
        if (n == name) return v;
    FAIL("no value of " << name);
    return 0;
}

} // namespace

TEST_CASE("continue this branch runs a reopened branch's study again from its last point",
          "[gui][branches][document]") {
    QTemporaryDir dir;
    const QString saved = dir.filePath("logistic_cut_branch.json");
    const double cut = 2.9; // the saved branch ends here, short of the period doubling at r = 3
    {
        // A branch continued from the diagram, saved with the document, then cut short in the file as
        // a cancelled continuation leaves it.
        ui::MainWindow first;
        first.resize(1400, 900);
        first.show();
        ui::ResultTab& tab =
            run_diagram(first, test::source_path("resources/studies/logistic_bifurcation.json"));
        QSignalSpy done(&first.continuations(), &ui::ContinuationController::finished);
        tab.continueAt(QPointF(2.8, 1 - 1 / 2.8));
        REQUIRE(test::wait_until([&] { return done.count() == 1; }, 60000));
        REQUIRE(tab.branches()->size() == 1);
        REQUIRE(first.documents().saveStudy(saved));
        first.close();
    }
    const QString document = read_all(saved);
    plot::DocumentOverlays read = plot::overlays_of_document(document);
    REQUIRE(read.overlays.size() == 1);
    auto& points = read.overlays.front().points;
    points.erase(
        std::remove_if(points.begin(), points.end(), [&](const auto& p) { return p.parameter > cut; }),
        points.end());
    REQUIRE(points.size() > 2);
    REQUIRE(write_all(saved, plot::document_json_with(document.toStdString(), read.overlays)));

    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ui::ResultTab& tab = run_diagram(window, saved);
    REQUIRE(tab.branches()->size() == 1);
    const plot::BranchOverlay reopened = tab.branches()->front();
    REQUIRE(reopened.seed);
    const plot::OverlayPoint last = reopened.points.back();
    for (const auto& p : reopened.points)
        REQUIRE(p.parameter <= cut);
    CHECK_FALSE(window.isWindowModified());

    // The study it runs: the seed's, started at the last point.
    QString why;
    const auto again = ui::continuation_from_branch(reopened, why);
    REQUIRE(again);
    CHECK(why.isEmpty());
    CHECK(again->analysis == study::EquilibriumAnalysis::OrbitContinuation);
    CHECK(again->parameter == reopened.seed->parameter);
    CHECK(parameter_of(*again, again->parameter) == last.parameter);
    REQUIRE(again->start.size() == 1);
    CHECK(again->start[0].first == "x");
    CHECK(again->start[0].second == last.state[0]);
    CHECK(again->from == reopened.seed->from);
    CHECK(again->to == reopened.seed->to);

    // Run from the tab (the menu's action): a second branch, past the cut, through the doubling.
    QSignalSpy done(&window.continuations(), &ui::ContinuationController::finished);
    tab.continueBranch(0);
    REQUIRE(test::wait_until([&] { return done.count() == 1; }, 60000));
    CHECK(done.first().at(0).toBool());
    REQUIRE(tab.branches()->size() == 2);
    const plot::BranchOverlay& continued = tab.branches()->back();
    CHECK(continued.name == reopened.name);
    REQUIRE(continued.seed);
    CHECK(continued.seed->start == again->start);
    double highest = -INFINITY;
    for (const auto& p : continued.points) {
        CHECK(p.state[0] == Approx(1 - 1 / p.parameter).margin(1e-8));
        highest = std::max(highest, p.parameter);
    }
    CHECK(highest > 3.5);
    const auto pd = std::find_if(continued.points.begin(), continued.points.end(),
                                 [](const auto& p) { return p.label == "PD"; });
    REQUIRE(pd != continued.points.end());
    CHECK(pd->parameter == Approx(3.0).margin(1e-7));
    // A branch added: the document has unsaved branches.
    CHECK(window.documents().state().branches_modified);
    CHECK(window.isWindowModified());
    tab.branchHistory().undo();
    CHECK(tab.branches()->size() == 1);
    CHECK_FALSE(window.isWindowModified());

    // A branch saved without its study does not continue, and says why.
    plot::BranchOverlay orphan = reopened;
    orphan.seed.reset();
    CHECK_FALSE(ui::continuation_from_branch(orphan, why));
    CHECK(why.contains("without its study"));
    tab.setInitialBranches(std::make_shared<const plot::Overlays>(plot::Overlays{orphan}));
    tab.continueBranch(0);
    QApplication::processEvents();
    CHECK(done.count() == 1); // nothing ran
    CHECK(window.messagesPanel().toPlainText().contains("does not continue"));
}

namespace {

// What the next popup menu offered (each action's text, whether enabled, its tooltip); triggers the
// first action whose text starts with `pick` (none where empty) and closes the menu.
struct MenuAnswer {
    struct Item {
        QString text, tip;
        bool enabled = false;
    };
    std::vector<Item> items;
    bool shown = false;

    explicit MenuAnswer(const QString& pick) {
        QObject::connect(&timer_, &QTimer::timeout, &timer_, [this, pick] {
            auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
            if (!menu) return;
            timer_.stop();
            shown = true;
            QAction* chosen = nullptr;
            for (QAction* a : menu->actions()) {
                if (a->isSeparator()) continue;
                items.push_back({a->text(), a->toolTip(), a->isEnabled()});
                if (!chosen && !pick.isEmpty() && a->text().startsWith(pick) && a->isEnabled()) chosen = a;
            }
            menu->close();
            if (chosen) chosen->trigger();
        });
        timer_.start(20);
    }

  private:
    QTimer timer_;
};

} // namespace

TEST_CASE("a continuation study's own tab continues a branch that stopped short from its menu",
          "[gui][branches]") {
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy done(&window.continuations(), &ui::ContinuationController::finished);
    // The model's path is relative to the study's folder: the continued study starts from there too.
    REQUIRE(
        window.openFile(test::source_path("resources/studies/equilibria/logistic_orbit_continuation.json")));
    ui::BranchTab* tab = window.plotArea().currentBranchTab();
    REQUIRE(tab);
    REQUIRE(test::wait_until([&] { return done.count() == 1; }, 60000));
    REQUIRE_FALSE(tab->overlays()->empty());

    // As a cancelled run leaves them: every branch cut short of the doubling at r = 3.
    const double cut = 2.9;
    plot::Overlays short_of_it;
    for (plot::BranchOverlay branch : *tab->overlays()) {
        auto& points = branch.points;
        points.erase(
            std::remove_if(points.begin(), points.end(), [&](const auto& p) { return p.parameter > cut; }),
            points.end());
        if (points.size() > 2) short_of_it.push_back(std::move(branch));
    }
    REQUIRE_FALSE(short_of_it.empty());
    REQUIRE(short_of_it.front().seed);
    const std::size_t before = short_of_it.size();
    tab->setOverlays(std::make_shared<const plot::Overlays>(short_of_it), true, "cancelled");
    // Another quantity on the y axis than the first: the continued branch keeps it.
    REQUIRE(tab->quantityBox().count() > 1);
    tab->quantityBox().setCurrentIndex(tab->quantityBox().count() - 1);
    const QString quantity = tab->quantityBox().currentText();

    // Right-click: one "Continue this branch" per branch; the first runs the study again.
    {
        MenuAnswer menu("Continue this branch");
        emit tab->view().customContextMenuRequested(QPoint(40, 40));
        REQUIRE(menu.shown);
        REQUIRE(menu.items.size() == before);
        CHECK(menu.items[0].text == "Continue this branch: " + short_of_it.front().name);
        CHECK(menu.items[0].enabled);
    }
    REQUIRE(test::wait_until([&] { return done.count() == 2; }, 60000));
    CHECK(done.last().at(0).toBool());
    // The branches it had, and what the continuation found beside them: past the cut, through the
    // period doubling at r = 3, on the fixed point x = 1 - 1/r.
    const auto shown = tab->overlays();
    REQUIRE(shown->size() > before);
    for (std::size_t i = 0; i < before; ++i)
        CHECK((*shown)[i].points.size() == short_of_it[i].points.size());
    double highest = -INFINITY;
    bool doubling = false;
    for (std::size_t i = before; i < shown->size(); ++i)
        for (const auto& p : (*shown)[i].points) {
            CHECK(p.state[0] == Approx(1 - 1 / p.parameter).margin(1e-8));
            highest = std::max(highest, p.parameter);
            if (p.label == "PD") {
                doubling = true;
                CHECK(p.parameter == Approx(3.0).margin(1e-7));
            }
        }
    CHECK(highest > 3.4);
    CHECK(doubling);
    CHECK(tab->quantityBox().currentText().toStdString() == quantity.toStdString());

    // A branch without its study: the action is there, disabled, and says why; asked for anyway, the
    // messages say why and nothing runs.
    plot::BranchOverlay orphan = short_of_it.front();
    orphan.seed.reset();
    tab->setOverlays(std::make_shared<const plot::Overlays>(plot::Overlays{orphan}), false, QString());
    {
        MenuAnswer menu("Continue this branch");
        emit tab->view().customContextMenuRequested(QPoint(40, 40));
        REQUIRE(menu.shown);
        REQUIRE(menu.items.size() == 1);
        CHECK_FALSE(menu.items[0].enabled);
        CHECK(menu.items[0].tip.contains("without its study"));
    }
    tab->continueBranch(0);
    QApplication::processEvents();
    CHECK(done.count() == 2);
    CHECK(window.messagesPanel().toPlainText().contains("does not continue"));
}
