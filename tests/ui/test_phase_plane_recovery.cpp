// Crash recovery keeps the phase-plane tabs: a session's snapshot holds each tab's view and file, and
// a fresh window restores them as tabs with the same axes, parameter values and trajectories, marked
// modified where they differ from their file (always where they have none). The snapshot goes
// through the real recovery file and reader; an old file without phase planes restores the model as
// before, and a damaged entry is named in the messages while the other tabs still come back.
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "ui/editor/model_editor_panel.h"
#include "ui/phase/phase_plane_canvas.h"
#include "ui/phase/phase_plane_panel.h"
#include "ui/shell/process_identity.h"
#include "ui/shell/recovery_store.h"
#include "ui/window/document_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/messages_panel.h"
#include "ui/window/phase_plane_documents.h"
#include "ui/window/phase_plane_studies.h"
#include "ui/window/plot_area.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <catch2/catch.hpp>
#include <vector>

using namespace bif;
using test::settled;

namespace {

const QString vdp_study = "tests/ui/data/vanderpol_phase_plane.json"; // mu = 1, slider over [0, 4]
const QString vdp_model = "resources/models/vanderpol.ode";

std::vector<ui::PhasePlanePanel*> phase_planes(ui::MainWindow& window) {
    std::vector<ui::PhasePlanePanel*> planes;
    QTabWidget& tabs = window.plotArea().tabs();
    for (int i = 0; i < tabs.count(); ++i)
        if (auto* panel = qobject_cast<ui::PhasePlanePanel*>(tabs.widget(i))) planes.push_back(panel);
    return planes;
}

// The window's recovery file as a later session reads it: the writer's start time moved an hour back,
// so that this running process is not taken for its writer.
QJsonObject recovery_file_of(ui::MainWindow& window) {
    ui::RecoveryStore& store = window.recovery();
    REQUIRE(store.saveNow() == ui::RecoveryStore::SaveResult::Written);
    QFile file(store.sessionFile());
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    store.markClean(); // the user's own recovery folder keeps nothing of the test
    return object;
}

ui::RecoverySnapshot read_as_crashed(QJsonObject object) {
    QTemporaryDir directory;
    const qint64 started = ui::process_start_ms(QCoreApplication::applicationPid());
    object["process_start_ms"] = (started != 0 ? started : QDateTime::currentMSecsSinceEpoch()) - 3'600'000;
    object["saved"] = QDateTime::currentDateTimeUtc().addSecs(-3000).toString(Qt::ISODateWithMs);
    QFile file(directory.filePath("session-crashed.json"));
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(object).toJson());
    file.close();
    const QList<ui::PendingRecovery> pending = ui::RecoveryStore(directory.path()).pendingRecoveries();
    REQUIRE(pending.size() == 1);
    return pending[0].snapshot;
}

// The view as the engine reads its study text back, for comparing two panels field by field.
study::Study view_of(const ui::PhasePlanePanel& panel) {
    const auto read = study::read_study_json(ui::phase_plane_study_text(panel).toStdString());
    REQUIRE(read.study);
    return *read.study;
}

void check_same_view(const ui::PhasePlanePanel& restored, const ui::PhasePlanePanel& original) {
    const study::Study a = view_of(restored);
    const study::Study b = view_of(original);
    CHECK(a.phase_plane.x == b.phase_plane.x);
    CHECK(a.phase_plane.y == b.phase_plane.y);
    CHECK(a.phase_plane.x_from == b.phase_plane.x_from);
    CHECK(a.phase_plane.x_to == b.phase_plane.x_to);
    CHECK(a.phase_plane.y_from == b.phase_plane.y_from);
    CHECK(a.phase_plane.y_to == b.phase_plane.y_to);
    CHECK(a.phase_plane.slider == b.phase_plane.slider);
    CHECK(a.parameters == b.parameters);
    CHECK(a.phase_plane.starts == b.phase_plane.starts);
    CHECK(restored.parameterValue() == original.parameterValue());
    CHECK(ui::phase_plane_study_text(restored).toStdString() ==
          ui::phase_plane_study_text(original).toStdString());
}

// A session with three phase planes: one changed since its file was saved, one as in its file, and
// one made from the edited model that has no file and other axes.
struct CrashedSession {
    QTemporaryDir dir;
    QString changed_path = dir.filePath("changed_view.json");
    QString clean_path = dir.filePath("clean_view.json");
    ui::MainWindow window;
    ui::PhasePlanePanel* changed = nullptr;
    ui::PhasePlanePanel* clean = nullptr;
    ui::PhasePlanePanel* unfiled = nullptr;

    CrashedSession() {
        window.resize(1400, 900);
        window.show();
        REQUIRE(window.openFile(test::source_path(vdp_model)));
        REQUIRE(window.openFile(test::source_path(vdp_study)));
        changed = window.plotArea().currentPhasePlane();
        REQUIRE(changed);
        REQUIRE(settled(*changed));
        REQUIRE(window.phasePlanes().saveTo(*changed, changed_path));
        REQUIRE(window.openFile(test::source_path(vdp_study)));
        clean = window.plotArea().currentPhasePlane();
        REQUIRE(clean);
        REQUIRE(clean != changed);
        REQUIRE(settled(*clean));
        REQUIRE(window.phasePlanes().saveTo(*clean, clean_path));
        unfiled = window.showPhasePlane();
        REQUIRE(unfiled);
        REQUIRE(settled(*unfiled));

        // mu = 2.5 and a second trajectory in the changed one, y against x in the unfiled one.
        changed->slider().setValue(625);
        QApplication::processEvents();
        REQUIRE(settled(*changed));
        QTest::mouseClick(&changed->canvas(), Qt::LeftButton, {}, changed->canvas().positionOf({1.5, -2.0}));
        REQUIRE(settled(*changed));
        unfiled->xAxis().setCurrentIndex(1);
        QApplication::processEvents();
        REQUIRE(settled(*unfiled));
        REQUIRE(unfiled->study().phase_plane.x == "y");
        REQUIRE(changed->parameterValue() == 2.5);
        REQUIRE(!changed->study().phase_plane.starts.empty());
        REQUIRE(window.phasePlanes().isModified(changed));
        REQUIRE_FALSE(window.phasePlanes().isModified(clean));
        REQUIRE(window.phasePlanes().isModified(unfiled));
    }
};

} // namespace

TEST_CASE("the recovery snapshot keeps the phase-plane tabs; a fresh window restores them with "
          "their views, files and modified marks",
          "[gui][phase_plane][recovery]") {
    CrashedSession crashed;
    const ui::RecoverySnapshot snapshot = read_as_crashed(recovery_file_of(crashed.window));
    REQUIRE(snapshot.phase_planes.size() == 3);
    CHECK(snapshot.phase_planes[0].path == QFileInfo(crashed.changed_path).absoluteFilePath());
    CHECK(snapshot.phase_planes[1].path == QFileInfo(crashed.clean_path).absoluteFilePath());
    CHECK(snapshot.phase_planes[2].path.isEmpty());

    ui::MainWindow restored;
    restored.resize(1400, 900);
    restored.show();
    restored.restoreRecovery(snapshot);
    CHECK(restored.messagesPanel().count(ui::MessagesPanel::Level::Error) == 0);
    CHECK(restored.editorPanel().text() == crashed.window.editorPanel().text());
    const std::vector<ui::PhasePlanePanel*> planes = phase_planes(restored);
    REQUIRE(planes.size() == 3);
    for (ui::PhasePlanePanel* panel : planes)
        REQUIRE(settled(*panel));
    ui::PhasePlaneDocuments& documents = restored.phasePlanes();

    // Changed since saved: the same view, its file, modified.
    check_same_view(*planes[0], *crashed.changed);
    CHECK(planes[0]->parameterValue() == 2.5);
    CHECK(documents.path(planes[0]) == QFileInfo(crashed.changed_path).absoluteFilePath());
    CHECK(documents.isModified(planes[0]));
    // As in its file: not modified.
    check_same_view(*planes[1], *crashed.clean);
    CHECK(planes[1]->parameterValue() == 1.0);
    CHECK(documents.path(planes[1]) == QFileInfo(crashed.clean_path).absoluteFilePath());
    CHECK_FALSE(documents.isModified(planes[1]));
    // No file: modified, as a recovered study without one is.
    check_same_view(*planes[2], *crashed.unfiled);
    CHECK(planes[2]->study().phase_plane.x == "y");
    CHECK(documents.path(planes[2]).isEmpty());
    CHECK(documents.isModified(planes[2]));
    CHECK(restored.documents().state().phase_plane_modified);
    CHECK(restored.isWindowModified());

    // Saving the changed one's view to its file makes it clean, and the file holds the recovered view.
    REQUIRE(documents.save(*planes[0]));
    CHECK_FALSE(documents.isModified(planes[0]));
    const auto written = study::read_study_file(crashed.changed_path.toStdString());
    REQUIRE(written.study);
    CHECK(written.study->phase_plane.starts == crashed.changed->study().phase_plane.starts);

    // What the restored window would write again is what the crashed one wrote.
    const ui::RecoverySnapshot again = read_as_crashed(recovery_file_of(restored));
    REQUIRE(again.phase_planes.size() == 3);
    for (qsizetype i = 0; i < 3; ++i) {
        CHECK(again.phase_planes[i].study_json.toStdString() ==
              snapshot.phase_planes[i].study_json.toStdString());
        CHECK(again.phase_planes[i].path.toStdString() == snapshot.phase_planes[i].path.toStdString());
    }
}

TEST_CASE("a recovery file written before phase planes were kept restores as before",
          "[gui][phase_plane][recovery]") {
    CrashedSession crashed;
    QJsonObject old = recovery_file_of(crashed.window);
    old.remove("phase_planes");
    old["bifscope_recovery"] = 1;
    const ui::RecoverySnapshot snapshot = read_as_crashed(old);
    CHECK(snapshot.phase_planes.isEmpty());
    CHECK(snapshot.model_text == crashed.window.editorPanel().text());

    ui::MainWindow restored;
    restored.restoreRecovery(snapshot);
    CHECK(restored.messagesPanel().count(ui::MessagesPanel::Level::Error) == 0);
    CHECK(restored.editorPanel().text() == crashed.window.editorPanel().text());
    CHECK(restored.documents().state().model_modified);
    CHECK(phase_planes(restored).empty());
    CHECK_FALSE(restored.documents().state().phase_plane_modified);
}

TEST_CASE("a damaged phase-plane entry is named in the messages and the rest is restored",
          "[gui][phase_plane][recovery]") {
    CrashedSession crashed;
    QJsonObject file = recovery_file_of(crashed.window);
    QJsonArray planes = file.value("phase_planes").toArray();
    REQUIRE(planes.size() == 3);
    // Cut short mid-text, not a phase plane's study, and not an object at all.
    QJsonObject cut = planes[0].toObject();
    cut["study_json"] = cut.value("study_json").toString().left(40);
    cut["path"] = "/nowhere/cut_view.json";
    QJsonObject not_phase_plane{{"study_json", R"({"bifscope_study": 1, "title": "a sweep"})"},
                                {"path", "/nowhere/sweep.json"}};
    planes.insert(0, cut);
    planes.insert(2, not_phase_plane);
    planes.append(42);
    file["phase_planes"] = planes;
    const ui::RecoverySnapshot snapshot = read_as_crashed(file);
    REQUIRE(snapshot.phase_planes.size() == 6);

    ui::MainWindow restored;
    restored.resize(1400, 900);
    restored.show();
    restored.restoreRecovery(snapshot);
    const QString messages = restored.messagesPanel().toPlainText();
    CHECK(restored.messagesPanel().count(ui::MessagesPanel::Level::Error) == 3);
    CHECK(messages.contains("cut_view.json"));
    CHECK(messages.contains("sweep.json"));
    CHECK(messages.contains("number 6"));
    // The model and the three sound tabs are back.
    CHECK(restored.editorPanel().text() == crashed.window.editorPanel().text());
    const std::vector<ui::PhasePlanePanel*> restored_planes = phase_planes(restored);
    REQUIRE(restored_planes.size() == 3);
    for (ui::PhasePlanePanel* panel : restored_planes)
        REQUIRE(settled(*panel));
    check_same_view(*restored_planes[0], *crashed.changed);
    check_same_view(*restored_planes[1], *crashed.clean);
    check_same_view(*restored_planes[2], *crashed.unfiled);
    CHECK(restored.phasePlanes().isModified(restored_planes[0]));
    CHECK_FALSE(restored.phasePlanes().isModified(restored_planes[1]));
}
