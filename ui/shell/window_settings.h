// A main window's geometry and dock/toolbar state, and the sizes of its named splitters, kept in
// QSettings between sessions. States from another layout version are ignored rather than misapplied.
#pragma once

#include <QString>

class QMainWindow;
class QSplitter;

namespace bif::ui {

class WindowSettings {
  public:
    // `version` goes with QMainWindow::saveState: raise it when the docks change.
    explicit WindowSettings(QString group = "main_window", int version = 1);

    void save(const QMainWindow& window) const;
    bool restore(QMainWindow& window) const; // false when nothing (usable) was saved

    void saveSplitter(const QString& name, const QSplitter& splitter) const;
    bool restoreSplitter(const QString& name, QSplitter& splitter) const;

  private:
    QString group_;
    int version_;
};

} // namespace bif::ui
