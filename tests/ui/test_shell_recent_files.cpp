// The recent-files list: order, limit, duplicates, vanished files, and the menu that mirrors it.
#include "ui/shell/recent_files.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

using bif::ui::RecentFiles;

namespace {

QString make_file(const QTemporaryDir& directory, const QString& name) {
    const QString path = directory.filePath(name);
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write("x'=1\ndone\n");
    return QFileInfo(path).canonicalFilePath();
}

QStringList file_actions(QMenu& menu) {
    QStringList paths;
    for (QAction* action : menu.actions())
        if (action->data().isValid()) paths.append(action->data().toString());
    return paths;
}

} // namespace

TEST_CASE("recent files: most recent first, each once, at most ten", "[shell][recent]") {
    QTemporaryDir directory;
    RecentFiles recent("test_recent_order");
    recent.clear();
    QStringList made;
    for (int i = 0; i < 12; ++i)
        made.append(make_file(directory, QString("m%1.ode").arg(i)));
    for (const QString& path : made)
        recent.add(path);

    QStringList expected; // by hand: the last ten added, newest first
    for (int i = 11; i >= 2; --i)
        expected.append(made[i]);
    CHECK(recent.files() == expected);

    // Re-adding moves to the front, also when spelt differently.
    recent.add(directory.path() + "/./m5.ode");
    REQUIRE(recent.files().size() == RecentFiles::max_count);
    CHECK(recent.files().first() == made[5]);
    CHECK(recent.files().count(made[5]) == 1);
    CHECK(recent.files()[1] == made[11]);

    // Missing files are neither added nor listed; the list survives a new object (QSettings).
    recent.add(directory.filePath("never_there.ode"));
    CHECK(recent.files().first() == made[5]);
    QFile::remove(made[11]);
    CHECK(!recent.files().contains(made[11]));
    CHECK(RecentFiles("test_recent_order").files() == recent.files());
}

TEST_CASE("recent files: the menu is numbered, follows changes and reports choices", "[shell][recent]") {
    QTemporaryDir directory;
    RecentFiles recent("test_recent_menu");
    recent.clear();
    QMenu* menu = recent.menu();
    CHECK(file_actions(*menu).isEmpty());

    const QString a = make_file(directory, "a.ode");
    const QString b = make_file(directory, "b&c.json");
    recent.add(a);
    recent.add(b);
    REQUIRE(file_actions(*menu) == QStringList{b, a});
    const QList<QAction*> actions = menu->actions();
    CHECK(actions[0]->text() == "&1  b&&c.json");
    CHECK(actions[1]->text() == "&2  a.ode");

    QSignalSpy chosen(&recent, &RecentFiles::fileChosen);
    actions[1]->trigger();
    REQUIRE(chosen.size() == 1);
    CHECK(chosen[0][0].toString() == a);

    QAction* clear = menu->actions().last();
    CHECK(clear->text() == "&Clear");
    QSignalSpy changed(&recent, &RecentFiles::changed);
    clear->trigger();
    QCoreApplication::processEvents();
    CHECK(changed.size() == 1);
    CHECK(recent.files().isEmpty());
    CHECK(file_actions(*menu).isEmpty());
    CHECK(!menu->actions().last()->isEnabled());
}
