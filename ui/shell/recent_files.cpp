#include "ui/shell/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace bif::ui {

namespace {

// One spelling per file, so that "a/../b.ode" and "b.ode" are not listed twice.
QString normalized(const QString& path) {
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : canonical;
}

} // namespace

RecentFiles::RecentFiles(QString settings_key, QObject* parent)
    : QObject(parent), key_(std::move(settings_key)) {}

RecentFiles::~RecentFiles() {
    delete menu_; // a QMenu is a QWidget and cannot be a QObject child of this
}

QStringList RecentFiles::files() const {
    const QStringList stored = QSettings().value(key_).toStringList();
    QStringList existing;
    for (const QString& path : stored)
        if (QFileInfo(path).isFile() && !existing.contains(path)) existing.append(path);
    return existing.mid(0, max_count);
}

void RecentFiles::add(const QString& path) {
    if (!QFileInfo(path).isFile()) return;
    const QString file = normalized(path);
    QStringList list = files();
    list.removeAll(file);
    list.prepend(file);
    store(list.mid(0, max_count));
}

void RecentFiles::clear() {
    store({});
}

void RecentFiles::store(const QStringList& files) {
    QSettings().setValue(key_, files);
    rebuildMenu();
    emit changed();
}

QMenu* RecentFiles::menu() {
    if (!menu_) {
        menu_ = new QMenu(tr("Open &Recent"));
        menu_->setToolTipsVisible(true);
        // Files can vanish while the app runs: check again each time the menu opens.
        connect(menu_, &QMenu::aboutToShow, this, &RecentFiles::rebuildMenu);
        rebuildMenu();
    }
    return menu_;
}

void RecentFiles::rebuildMenu() {
    if (!menu_) return;
    // Not QMenu::clear(): that deletes at once, and "Clear" itself triggers this rebuild.
    for (QAction* action : menu_->actions()) {
        menu_->removeAction(action);
        action->deleteLater();
    }
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        const QString& path = list[i];
        // &1..&9 give the first nine a key; the tenth goes without.
        const QString number = i < 9 ? QString("&%1").arg(i + 1) : QString::number(i + 1);
        QString label = QString("%1  %2").arg(number, QFileInfo(path).fileName().replace('&', "&&"));
        QAction* action = menu_->addAction(label);
        action->setToolTip(path);
        action->setStatusTip(path);
        action->setData(path);
        connect(action, &QAction::triggered, this, [this, path] { emit fileChosen(path); });
    }
    if (!list.isEmpty()) menu_->addSeparator();
    QAction* clear_action = menu_->addAction(tr("&Clear"));
    clear_action->setEnabled(!list.isEmpty());
    connect(clear_action, &QAction::triggered, this, &RecentFiles::clear);
}

} // namespace bif::ui
