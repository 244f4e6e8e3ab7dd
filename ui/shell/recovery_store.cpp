#include "ui/shell/recovery_store.h"

#include "ui/shell/process_identity.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>
#include <cstdlib>

namespace bif::ui {

namespace {

// 2: with the phase-plane tabs ("phase_planes"); a version 1 file reads as one without any.
constexpr int format_version = 2;
const char* const file_prefix = "session-";

// Start times from /proc are rounded to clock ticks and the boot time to seconds.
constexpr qint64 start_time_slack_ms = 2000;

QJsonArray phase_planes_json(const QList<RecoveredPhasePlane>& planes) {
    QJsonArray array;
    for (const RecoveredPhasePlane& plane : planes)
        array.append(QJsonObject{{"study_json", plane.study_json}, {"path", plane.path}});
    return array;
}

// An entry that is not an object keeps an empty text: restoring it says that it is damaged, and the
// other tabs still come back.
QList<RecoveredPhasePlane> phase_planes_of(const QJsonValue& value) {
    QList<RecoveredPhasePlane> planes;
    for (const QJsonValue& entry : value.toArray()) {
        const QJsonObject object = entry.toObject();
        planes.append({object.value("study_json").toString(), object.value("path").toString()});
    }
    return planes;
}

} // namespace

QString RecoveryStore::defaultDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + "/recovery";
}

RecoveryStore::RecoveryStore(QString directory, QObject* parent)
    : QObject(parent), directory_(std::move(directory)) {
    const qint64 pid = current_process_id();
    process_start_ms_ = process_start_ms(pid);
    // The start time in the name keeps a reused PID from overwriting a crashed session's file.
    const qint64 stamp = process_start_ms_ != 0 ? process_start_ms_ : QDateTime::currentMSecsSinceEpoch();
    session_file_ = QString("%1/%2%3-%4.json").arg(directory_, file_prefix).arg(pid).arg(stamp);
    timer_.setInterval(default_interval_ms);
    connect(&timer_, &QTimer::timeout, this, &RecoveryStore::saveNow);
}

void RecoveryStore::setSnapshotFunction(std::function<RecoverySnapshot()> snapshot) {
    snapshot_ = std::move(snapshot);
    if (snapshot_)
        timer_.start();
    else
        timer_.stop();
}

void RecoveryStore::setInterval(int milliseconds) {
    timer_.setInterval(milliseconds);
}

RecoveryStore::SaveResult RecoveryStore::saveNow() {
    if (!snapshot_) return SaveResult::Unchanged;
    RecoverySnapshot snapshot = snapshot_();
    if (last_saved_ && *last_saved_ == snapshot) return SaveResult::Unchanged;

    QJsonObject object{
        {"bifscope_recovery", format_version},
        {"pid", current_process_id()},
        {"process_start_ms", process_start_ms_},
        {"saved", QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {"model_text", snapshot.model_text},
        {"model_path", snapshot.model_path},
        {"study_json", snapshot.study_json},
        {"study_path", snapshot.study_path},
        {"phase_planes", phase_planes_json(snapshot.phase_planes)},
    };
    QDir().mkpath(directory_);
    QSaveFile file(session_file_);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(object).toJson()) < 0 ||
        !file.commit()) {
        emit saveFailed(
            tr("Could not write the recovery file %1: %2").arg(session_file_, file.errorString()));
        return SaveResult::Failed;
    }
    last_saved_ = std::move(snapshot);
    return SaveResult::Written;
}

void RecoveryStore::markClean() {
    QFile::remove(session_file_);
    if (snapshot_)
        last_saved_ = snapshot_();
    else
        last_saved_.reset();
}

bool RecoveryStore::writerStillRuns(const QJsonObject& header) const {
    const qint64 pid = header.value("pid").toInteger();
    if (!process_is_running(pid)) return false;
    const qint64 running_start = process_start_ms(pid);
    if (running_start == 0) return true;
    const qint64 writer_start = header.value("process_start_ms").toInteger();
    if (writer_start != 0) return std::abs(running_start - writer_start) <= start_time_slack_ms;
    // No start time recorded: a process started after the file was written is not its writer.
    const QDateTime saved = QDateTime::fromString(header.value("saved").toString(), Qt::ISODateWithMs);
    return !saved.isValid() || running_start <= saved.toMSecsSinceEpoch() + start_time_slack_ms;
}

std::optional<PendingRecovery> RecoveryStore::read(const QString& path) const {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return std::nullopt;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    const QJsonObject object = document.object();
    if (!object.contains("bifscope_recovery")) return std::nullopt;
    if (writerStillRuns(object)) return std::nullopt;
    PendingRecovery recovery;
    recovery.file = path;
    recovery.writer_pid = object.value("pid").toInteger();
    recovery.saved_at = QDateTime::fromString(object.value("saved").toString(), Qt::ISODateWithMs);
    recovery.snapshot.model_text = object.value("model_text").toString();
    recovery.snapshot.model_path = object.value("model_path").toString();
    recovery.snapshot.study_json = object.value("study_json").toString();
    recovery.snapshot.study_path = object.value("study_path").toString();
    recovery.snapshot.phase_planes = phase_planes_of(object.value("phase_planes"));
    return recovery;
}

QList<PendingRecovery> RecoveryStore::pendingRecoveries() const {
    QList<PendingRecovery> found;
    const QDir directory(directory_);
    const QStringList names = directory.entryList({QString(file_prefix) + "*.json"}, QDir::Files);
    for (const QString& name : names) {
        const QString path = directory.filePath(name);
        if (QFileInfo(path) == QFileInfo(session_file_)) continue;
        if (std::optional<PendingRecovery> recovery = read(path)) found.append(std::move(*recovery));
    }
    std::sort(found.begin(), found.end(),
              [](const PendingRecovery& a, const PendingRecovery& b) { return a.saved_at > b.saved_at; });
    return found;
}

bool RecoveryStore::discard(const PendingRecovery& recovery) {
    if (QFileInfo(recovery.file).absolutePath() != QFileInfo(directory_ + "/").absolutePath()) return false;
    return QFile::remove(recovery.file);
}

} // namespace bif::ui
