// The File › Open Recent list: most recent first, at most ten, each file once, and only files that
// still exist. Kept in QSettings so that it outlives the session; the menu follows every change.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QMenu;

namespace bif::ui {

class RecentFiles : public QObject {
    Q_OBJECT
  public:
    static constexpr int max_count = 10;

    explicit RecentFiles(QString settings_key = "recent_files", QObject* parent = nullptr);
    ~RecentFiles() override;

    void add(const QString& path);
    void clear();
    // Absolute paths, most recent first; files deleted since they were added are left out.
    QStringList files() const;
    // Owned by this object; the caller adds it to a menu bar or as a submenu.
    QMenu* menu();

  signals:
    void fileChosen(const QString& path);
    void changed();

  private:
    void store(const QStringList& files);
    void rebuildMenu();

    QString key_;
    QMenu* menu_ = nullptr;
};

} // namespace bif::ui
