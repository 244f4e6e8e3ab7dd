// What the recovery file keeps of an unsaved session: enough for DocumentController::restore to
// bring the editor and the study panel back as they were.
#pragma once

#include <QDateTime>
#include <QString>

namespace bif::ui {

struct RecoverySnapshot {
    QString model_text;
    QString model_path; // empty: untitled
    QString study_json; // as Save study writes it: with the branches drawn over its result
    QString study_path; // empty: none

    bool operator==(const RecoverySnapshot&) const = default;
};

// A snapshot left behind by a session that is no longer running.
struct PendingRecovery {
    QString file; // the recovery file, for RecoveryStore::discard
    qint64 writer_pid = 0;
    QDateTime saved_at;
    RecoverySnapshot snapshot;
};

} // namespace bif::ui
