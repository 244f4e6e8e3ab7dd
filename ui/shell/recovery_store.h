// Unsaved edits are never lost: the session's model and study are written every 30 s (and on
// request) to a file of its own under AppLocalDataLocation/recovery, which names the writer's PID.
// A later session offers the files whose writers no longer run; a clean save or exit removes the
// session's file. Files are written whole through QSaveFile, so a crash mid-write leaves the
// previous snapshot, never half of one.
#pragma once

#include "ui/shell/recovery_snapshot.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <optional>

namespace bif::ui {

class RecoveryStore : public QObject {
    Q_OBJECT
  public:
    enum class SaveResult { Written, Unchanged, Failed };

    static QString defaultDirectory(); // AppLocalDataLocation/recovery
    static constexpr int default_interval_ms = 30'000;

    explicit RecoveryStore(QString directory = defaultDirectory(), QObject* parent = nullptr);

    // Autosave starts once the store can ask for the snapshot.
    void setSnapshotFunction(std::function<RecoverySnapshot()> snapshot);
    void setInterval(int milliseconds);
    int interval() const { return timer_.interval(); }

    // Writes the current snapshot if it differs from what the file (or the last clean save) holds.
    SaveResult saveNow();
    // The document was saved or the app exits cleanly: remove this session's file, and take the
    // current snapshot as the saved state so that it is not written again until it changes.
    void markClean();

    // Snapshots of sessions that no longer run, newest first; never this session's own.
    QList<PendingRecovery> pendingRecoveries() const;
    bool discard(const PendingRecovery& recovery);

    QString directory() const { return directory_; }
    QString sessionFile() const { return session_file_; }

  signals:
    void saveFailed(const QString& message);

  private:
    std::optional<PendingRecovery> read(const QString& path) const;
    bool writerStillRuns(const QJsonObject& header) const;

    QString directory_;
    QString session_file_;
    qint64 process_start_ms_ = 0;
    std::function<RecoverySnapshot()> snapshot_;
    std::optional<RecoverySnapshot> last_saved_;
    QTimer timer_;
};

} // namespace bif::ui
