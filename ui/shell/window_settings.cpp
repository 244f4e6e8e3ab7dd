#include "ui/shell/window_settings.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace bif::ui {

WindowSettings::WindowSettings(QString group, int version) : group_(std::move(group)), version_(version) {}

void WindowSettings::save(const QMainWindow& window) const {
    QSettings settings;
    settings.beginGroup(group_);
    settings.setValue("geometry", window.saveGeometry());
    settings.setValue("state", window.saveState(version_));
}

bool WindowSettings::restore(QMainWindow& window) const {
    QSettings settings;
    settings.beginGroup(group_);
    const QByteArray geometry = settings.value("geometry").toByteArray();
    const QByteArray state = settings.value("state").toByteArray();
    const bool geometry_restored = !geometry.isEmpty() && window.restoreGeometry(geometry);
    const bool state_restored = !state.isEmpty() && window.restoreState(state, version_);
    return geometry_restored || state_restored;
}

void WindowSettings::saveSplitter(const QString& name, const QSplitter& splitter) const {
    QSettings settings;
    settings.beginGroup(group_ + "/splitters");
    settings.setValue(name, splitter.saveState());
}

bool WindowSettings::restoreSplitter(const QString& name, QSplitter& splitter) const {
    QSettings settings;
    settings.beginGroup(group_ + "/splitters");
    const QByteArray state = settings.value(name).toByteArray();
    return !state.isEmpty() && splitter.restoreState(state);
}

} // namespace bif::ui
