// What the recovery file keeps of an unsaved session: enough for DocumentController::restore to
// bring the editor and the study panel back as they were, and for the main window to reopen the
// phase-plane tabs.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

namespace bif::ui {

// One phase-plane tab: its view (axes, window, slider, trajectories' starts) as a study file's text.
struct RecoveredPhasePlane {
    QString study_json;
    QString path; // the view's own study file; empty: none yet

    bool operator==(const RecoveredPhasePlane&) const = default;
};

struct RecoverySnapshot {
    QString model_text;
    QString model_path; // empty: untitled
    QString study_json; // as Save study writes it: with the branches drawn over its result
    QString study_path; // empty: none
    // In tab order; none in files written before phase planes were kept.
    QList<RecoveredPhasePlane> phase_planes = {};

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
