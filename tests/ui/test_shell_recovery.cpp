// Recovery after a crash: a helper process saves unsaved work and is killed with SIGKILL; a new
// session must offer exactly that work, not while the writer still runs, and never again once
// discarded or restored.
#include "gui_test_support.h"
#include "ui/shell/process_identity.h"
#include "ui/shell/recovery_dialog.h"
#include "ui/shell/recovery_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <memory>

using bif::ui::PendingRecovery;
using bif::ui::RecoveryDialog;
using bif::ui::RecoverySnapshot;
using bif::ui::RecoveryStore;

namespace {

// A session with unsaved work, running in its own process until killed.
struct ChildSession {
    std::unique_ptr<QProcess> process = std::make_unique<QProcess>();

    ChildSession(const QString& directory, const RecoverySnapshot& snapshot) {
        process->start(BIFSCOPE_RECOVERY_CHILD, {directory, snapshot.model_text, snapshot.model_path,
                                                 snapshot.study_json, snapshot.study_path});
        REQUIRE(process->waitForStarted(10'000));
        REQUIRE(bif::test::wait_until([&] { return process->canReadLine(); }, 20'000));
        REQUIRE(process->readLine().trimmed() == "saved");
    }
    qint64 pid() const { return process->processId(); }
    void kill() {
        process->kill(); // SIGKILL: no destructor, no markClean
        REQUIRE(process->waitForFinished(10'000));
    }
    ~ChildSession() {
        if (process->state() != QProcess::NotRunning) kill();
    }
};

RecoverySnapshot snapshot_named(const QString& name) {
    return {QString("# %1\nx'=-a*x\npar a=1\ninit x=1\ndone\n").arg(name),
            "/home/user/models/" + name + ".ode",
            QString(R"({"bifscope_study": 1, "title": "%1 — ünïcode"})").arg(name),
            "/home/user/" + name + ".json"};
}

int files_in(const QString& directory) {
    return static_cast<int>(QDir(directory).entryList({"*.json"}, QDir::Files).size());
}

} // namespace

TEST_CASE("a killed session's snapshot is offered once its writer is gone", "[shell][recovery]") {
    QTemporaryDir directory;
    REQUIRE(directory.isValid());
    const RecoverySnapshot expected = snapshot_named("decay");
    ChildSession child(directory.path(), expected);
    REQUIRE(files_in(directory.path()) == 1);

    // While the writer runs its file belongs to it.
    CHECK(RecoveryStore(directory.path()).pendingRecoveries().isEmpty());

    const qint64 pid = child.pid();
    child.kill();
    RecoveryStore store(directory.path());
    const QList<PendingRecovery> pending = store.pendingRecoveries();
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].snapshot == expected);
    CHECK(pending[0].writer_pid == pid);
    CHECK(std::abs(pending[0].saved_at.secsTo(QDateTime::currentDateTimeUtc())) < 60);

    REQUIRE(store.discard(pending[0]));
    CHECK(store.pendingRecoveries().isEmpty());
    CHECK(files_in(directory.path()) == 0);
}

TEST_CASE("the recovery dialog restores one session and discards another", "[shell][recovery]") {
    QTemporaryDir directory;
    const RecoverySnapshot first = snapshot_named("first");
    RecoverySnapshot untitled = snapshot_named("untitled");
    untitled.model_path.clear();
    untitled.study_path.clear();
    for (const RecoverySnapshot& snapshot : {first, untitled})
        ChildSession(directory.path(), snapshot).kill();

    RecoveryStore store(directory.path());
    RecoveryDialog dialog(store);
    REQUIRE(dialog.pendingCount() == 2);
    bif::test::save_screenshot(dialog, "shell_recovery_dialog");

    std::optional<RecoverySnapshot> restored;
    QObject::connect(&dialog, &RecoveryDialog::restoreChosen,
                     [&](const RecoverySnapshot& snapshot) { restored = snapshot; });
    // Rows are newest first: find the untitled one by content, not by position.
    const QList<PendingRecovery> pending = store.pendingRecoveries();
    const int untitled_row = pending[0].snapshot == untitled ? 0 : 1;
    CHECK(RecoveryDialog::describe(pending[untitled_row]).startsWith("untitled"));
    CHECK(RecoveryDialog::describe(pending[1 - untitled_row]).contains("first.ode"));

    dialog.selectRow(1 - untitled_row);
    dialog.discardSelected();
    CHECK(dialog.pendingCount() == 1);
    CHECK(!restored);
    dialog.selectRow(0);
    dialog.restoreSelected();
    REQUIRE(restored);
    CHECK(*restored == untitled);
    CHECK(dialog.result() == QDialog::Accepted);
    CHECK(store.pendingRecoveries().isEmpty());
    CHECK(files_in(directory.path()) == 0);
}

TEST_CASE("autosave writes on a timer, only changes, and a clean save removes the file",
          "[shell][recovery]") {
    QTemporaryDir directory;
    RecoveryStore store(directory.path());
    RecoverySnapshot current = snapshot_named("live");
    int asked = 0;
    store.setSnapshotFunction([&] {
        ++asked;
        return current;
    });
    CHECK(store.interval() == RecoveryStore::default_interval_ms);
    store.setInterval(30);
    REQUIRE(bif::test::wait_until([&] { return QFile::exists(store.sessionFile()); }, 5000));
    CHECK(store.sessionFile().contains(QString::number(QCoreApplication::applicationPid())));

    // The file is plain JSON with the writer's PID and the snapshot.
    QFile file(store.sessionFile());
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject saved = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    CHECK(saved.value("pid").toInteger() == QCoreApplication::applicationPid());
    CHECK(saved.value("model_text").toString() == current.model_text);
    CHECK(saved.value("study_json").toString() == current.study_json);

    store.setInterval(60'000);
    CHECK(store.saveNow() == RecoveryStore::SaveResult::Unchanged);
    current.model_text += "# edited\n";
    CHECK(store.saveNow() == RecoveryStore::SaveResult::Written);
    CHECK(store.pendingRecoveries().isEmpty()); // never this session's own file

    store.markClean();
    CHECK(!QFile::exists(store.sessionFile()));
    CHECK(store.saveNow() == RecoveryStore::SaveResult::Unchanged); // the saved state is the clean one
    current.model_text += "# edited again\n";
    CHECK(store.saveNow() == RecoveryStore::SaveResult::Written);
    CHECK(asked >= 5);
}

#ifdef Q_OS_LINUX
TEST_CASE("a file whose PID now belongs to a later process is offered", "[shell][recovery]") {
    QTemporaryDir directory;
    const qint64 pid = QCoreApplication::applicationPid();
    const qint64 started = bif::ui::process_start_ms(pid);
    REQUIRE(started > 0);
    CHECK(std::abs(started - QDateTime::currentMSecsSinceEpoch()) < 24LL * 3600 * 1000);
    // Written by an earlier process with this PID, an hour before this one started.
    const QJsonObject stale{
        {"bifscope_recovery", 1},
        {"pid", pid},
        {"process_start_ms", started - 3'600'000},
        {"saved", QDateTime::fromMSecsSinceEpoch(started - 3'000'000, Qt::UTC).toString(Qt::ISODateWithMs)},
        {"model_text", "x'=1\ndone\n"}};
    QFile file(directory.filePath("session-old.json"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(stale).toJson());
    file.close();

    const QList<PendingRecovery> pending = RecoveryStore(directory.path()).pendingRecoveries();
    REQUIRE(pending.size() == 1);
    CHECK(pending[0].snapshot.model_text == "x'=1\ndone\n");
    CHECK(pending[0].snapshot.model_path.isEmpty());
}
#endif

TEST_CASE("the phase-plane tabs go through the recovery file; an entry that is not one reads empty",
          "[shell][recovery]") {
    QTemporaryDir written_to;
    RecoverySnapshot expected = snapshot_named("planes");
    expected.phase_planes = {{R"({"bifscope_study": 1, "title": "plane — ü"})", "/home/user/plane.json"},
                             {R"({"bifscope_study": 1})", QString()}};
    RecoveryStore store(written_to.path());
    store.setSnapshotFunction([&] { return expected; });
    REQUIRE(store.saveNow() == RecoveryStore::SaveResult::Written);
    QFile file(store.sessionFile());
    REQUIRE(file.open(QIODevice::ReadOnly));
    QJsonObject saved = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    store.setSnapshotFunction({});
    CHECK(saved.value("phase_planes").toArray().size() == 2);

    // Read by a later session: the writer (this process) taken for one that started an hour earlier.
    const auto read_back = [](const QJsonObject& object) {
        QTemporaryDir directory;
        QJsonObject crashed = object;
        crashed["process_start_ms"] = crashed.value("process_start_ms").toInteger() - 3'600'000;
        if (crashed.value("process_start_ms").toInteger() <= 0)
            crashed["saved"] = QDateTime::currentDateTimeUtc().addDays(-1).toString(Qt::ISODateWithMs);
        QFile copy(directory.filePath("session-copy.json"));
        REQUIRE(copy.open(QIODevice::WriteOnly));
        copy.write(QJsonDocument(crashed).toJson());
        copy.close();
        const QList<PendingRecovery> pending = RecoveryStore(directory.path()).pendingRecoveries();
        REQUIRE(pending.size() == 1);
        return pending[0].snapshot;
    };
    CHECK(read_back(saved) == expected);
    CHECK(RecoveryDialog::describe({QString(), 0, QDateTime::currentDateTime(), expected})
              .contains("2 phase plane"));
    CHECK_FALSE(RecoveryDialog::describe({QString(), 0, QDateTime::currentDateTime(), snapshot_named("none")})
                    .contains("phase plane"));

    QJsonArray damaged = saved.value("phase_planes").toArray();
    damaged.append(QJsonValue("not an entry"));
    saved["phase_planes"] = damaged;
    const RecoverySnapshot with_damaged = read_back(saved);
    REQUIRE(with_damaged.phase_planes.size() == 3);
    CHECK(with_damaged.phase_planes[0] == expected.phase_planes[0]);
    CHECK(with_damaged.phase_planes[2].study_json.isEmpty());
    CHECK(with_damaged.phase_planes[2].path.isEmpty());
}
