// Window geometry, dock state and splitter sizes survive into a new window through QSettings.
#include "ui/shell/window_settings.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QSettings>
#include <QSplitter>
#include <QTest>
#include <catch2/catch.hpp>

using bif::ui::WindowSettings;

namespace {

struct Window {
    QMainWindow window;
    QDockWidget* dock = new QDockWidget("Messages");
    QSplitter* splitter = new QSplitter;

    Window() {
        dock->setObjectName("messages_dock");
        dock->setWidget(new QLabel("messages"));
        window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        splitter->addWidget(new QLabel("editor"));
        splitter->addWidget(new QLabel("plot"));
        window.setCentralWidget(splitter);
    }
};

} // namespace

TEST_CASE("window geometry, dock state and splitters round-trip", "[shell][window]") {
    QSettings().remove("test_window");
    const WindowSettings settings("test_window");
    {
        Window fresh;
        CHECK(!settings.restore(fresh.window));
        CHECK(!settings.restoreSplitter("main", *fresh.splitter));
    }
    QList<int> sizes;
    {
        Window first;
        first.window.resize(820, 560);
        first.window.show();
        REQUIRE(QTest::qWaitForWindowExposed(&first.window));
        first.splitter->setSizes({150, 500});
        first.window.removeDockWidget(first.dock); // hidden, and in no area
        first.window.addDockWidget(Qt::RightDockWidgetArea, first.dock);
        first.dock->hide();
        sizes = first.splitter->sizes();
        REQUIRE(sizes[0] < sizes[1]);
        settings.save(first.window);
        settings.saveSplitter("main", *first.splitter);
    }
    Window second;
    REQUIRE(settings.restore(second.window));
    REQUIRE(settings.restoreSplitter("main", *second.splitter));
    second.window.show();
    REQUIRE(QTest::qWaitForWindowExposed(&second.window));
    CHECK(second.window.size() == QSize(820, 560));
    CHECK(second.window.dockWidgetArea(second.dock) == Qt::RightDockWidgetArea);
    CHECK(second.dock->isHidden());
    CHECK(second.splitter->sizes() == sizes);

    // A state saved for another dock layout is not applied.
    Window other;
    WindowSettings("test_window", 2).restore(other.window);
    CHECK(other.window.dockWidgetArea(other.dock) == Qt::BottomDockWidgetArea);
    CHECK(!other.dock->isHidden());
}
