// The study panel's settings are the document's: an edit there (a parameter, a sweep range) or ranges
// a zoom writes into it mark the window modified until the study is saved or edited back to the
// values saved; closing, opening another file or a new model asks first, naming the study, and Save
// writes the study file. The file is read back with the engine's reader, not the panel.
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "ui/editor/model_editor_panel.h"
#include "ui/study/study_panel.h"
#include "ui/views/plot_view.h"
#include "ui/window/document_controller.h"
#include "ui/window/figure_result_view.h"
#include "ui/window/main_window.h"
#include "ui/window/plot_area.h"
#include "ui/window/result_tab.h"
#include "ui/window/run_controller.h"

#include <QApplication>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWindow>
#include <catch2/catch.hpp>

using namespace bif;
using test::parameter;
using test::PromptAnswer;
using test::shown_title;

namespace {

const QString period1_study = "tests/ui/data/duffing_period1.json"; // b = 0.3, k from 0.44 to 0.5

// Opens `study` (under the source tree) once the editor's own check of its model is in, so that
// nothing the window does after opening is left to come.
void open_settled(ui::MainWindow& window, const QString& study) {
    QSignalSpy checked(&window.editorPanel(), &ui::ModelEditorPanel::modelChecked);
    REQUIRE(window.openFile(test::source_path(study)));
    REQUIRE(test::wait_until([&] { return checked.count() > 0; }, 10000));
    QApplication::processEvents();
}

// Types `text` into the parameter table's cell for `name` as a user does: the cell's editor, then Enter.
void type_parameter(ui::StudyPanel& panel, const std::string& name, const QString& text) {
    auto* table = qobject_cast<QTableWidget*>(panel.fieldAt("parameters." + name));
    REQUIRE(table);
    QTableWidgetItem* cell = nullptr;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text().toStdString() == name) cell = table->item(r, 1);
    REQUIRE(cell);
    table->scrollToItem(cell);
    table->editItem(cell);
    QLineEdit* editor = nullptr;
    for (QLineEdit* e : table->viewport()->findChildren<QLineEdit*>())
        if (e->isVisible()) editor = e;
    REQUIRE(editor);
    editor->selectAll();
    QTest::keyClicks(editor, text);
    QTest::keyClick(editor, Qt::Key_Return);
    // The closed editor goes at the next deferred delete: gone before the next cell is edited.
    QApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QApplication::processEvents();
}

void type_field(ui::StudyPanel& panel, const std::string& path, const QString& text) {
    auto* edit = qobject_cast<QLineEdit*>(panel.fieldAt(path));
    REQUIRE(edit);
    edit->selectAll();
    QTest::keyClicks(edit, text);
    QApplication::processEvents();
}

} // namespace

TEST_CASE("an edit of the study panel marks the window modified until the study is saved or edited back; "
          "closing asks, names the study, and Save writes it",
          "[gui][document][study]") {
    QTemporaryDir dir;
    const QString path = dir.filePath("duffing_edited.json");
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    const ui::DocumentController& documents = window.documents();
    ui::StudyPanel& panel = window.studyPanel();
    open_settled(window, period1_study);
    CHECK_FALSE(window.isWindowModified());
    // A copy of the study of our own to write to (its model named relative to the copy).
    REQUIRE(window.documents().saveStudy(path));
    CHECK_FALSE(window.isWindowModified());
    CHECK(shown_title(window) == window.windowTitle().remove("[*]"));

    // A parameter typed: the study is modified, not the model.
    type_parameter(panel, "b", "0.35");
    CHECK(parameter(panel.study(), "b") == 0.35);
    CHECK(window.isWindowModified());
    CHECK(documents.state().study_modified);
    CHECK_FALSE(documents.state().model_modified);
    CHECK_FALSE(documents.state().branches_modified);
    CHECK(shown_title(window) == window.windowTitle().replace("[*]", "*"));
    // Typed back to the value saved: clean again.
    type_parameter(panel, "b", "0.3");
    CHECK(parameter(panel.study(), "b") == 0.3);
    CHECK_FALSE(window.isWindowModified());

    // Saved with the edit: clean; the saved value is what a later edit is compared with.
    type_parameter(panel, "b", "0.35");
    CHECK(window.isWindowModified());
    REQUIRE(window.documents().saveStudy(path));
    CHECK_FALSE(window.isWindowModified());
    CHECK_FALSE(documents.state().study_modified);
    type_parameter(panel, "b", "0.3");
    CHECK(window.isWindowModified());
    type_parameter(panel, "b", "0.35");
    CHECK_FALSE(window.isWindowModified());

    // A sweep range typed, and typed back.
    type_field(panel, "sweep[0].to", "0.48");
    CHECK(panel.study().sweep[0].to == 0.48);
    CHECK(window.isWindowModified());
    type_field(panel, "sweep[0].to", "0.5");
    CHECK_FALSE(window.isWindowModified());
    type_field(panel, "sweep[0].to", "0.48");
    REQUIRE(window.isWindowModified());

    // Closing, another file, a new model: each asks, naming the study and its file, not the model;
    // Cancel keeps the window and the edit.
    {
        const QString asked = test::cancelled_close(window);
        CHECK(asked.contains("study"));
        CHECK(asked.contains("duffing_edited.json"));
        CHECK_FALSE(asked.contains("duffing.ode"));
        CHECK_FALSE(asked.contains("branches"));
    }
    {
        PromptAnswer cancel(QMessageBox::Cancel);
        CHECK_FALSE(window.openFile(test::source_path(period1_study)));
        CHECK(cancel.asked);
    }
    {
        PromptAnswer cancel(QMessageBox::Cancel);
        CHECK_FALSE(window.documents().newModel());
        CHECK(cancel.asked);
    }
    CHECK(window.isVisible());
    CHECK(window.isWindowModified());
    CHECK(documents.state().study_path == QFileInfo(path).absoluteFilePath());
    CHECK(panel.study().sweep[0].to == 0.48);
    CHECK(parameter(panel.study(), "b") == 0.35);

    // Save in the question writes the study file, and the window closes clean.
    {
        PromptAnswer save(QMessageBox::Save);
        CHECK(window.close());
        CHECK(save.asked);
    }
    CHECK_FALSE(window.isVisible());
    CHECK_FALSE(window.isWindowModified());
    study::StudyReadResult written = study::read_study_file(path.toStdString());
    REQUIRE(written.study);
    REQUIRE(written.study->sweep.size() == 1);
    CHECK(written.study->sweep[0].to == 0.48);
    CHECK(written.study->sweep[0].from == 0.44);
    CHECK(parameter(*written.study, "b") == 0.35);

    // Discard: the window closes and the file stays as saved.
    window.show();
    type_field(panel, "sweep[0].to", "0.46");
    REQUIRE(window.isWindowModified());
    {
        PromptAnswer discard(QMessageBox::Discard);
        CHECK(window.close());
        CHECK(discard.asked);
    }
    CHECK_FALSE(window.isVisible());
    written = study::read_study_file(path.toStdString());
    REQUIRE(written.study);
    CHECK(written.study->sweep[0].to == 0.48);
}

TEST_CASE("ranges a zoom writes into the study panel mark the window modified; back to the file's "
          "ranges clears the mark",
          "[gui][document][study]") {
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    open_settled(window, period1_study);
    REQUIRE(window.runStudy());
    const auto finished = [&] {
        return !window.runs().running() && window.plotArea().currentTab() &&
               window.plotArea().currentTab()->result();
    };
    REQUIRE(test::wait_until(finished, 120000));
    ui::ResultTab& tab = *window.plotArea().currentTab();
    CHECK_FALSE(window.isWindowModified());
    const auto first_study = tab.study();

    // A rubber band over the middle of k: the zoomed ranges go into the panel, and so into the study.
    ui::PlotView& view = static_cast<ui::FigureResultView&>(tab.view()).plotView();
    const QRectF area = view.plotArea();
    const auto at = [&](double fx, double fy) {
        return QPoint(int(area.left() + fx * area.width()), int(area.top() + fy * area.height()));
    };
    QTest::mousePress(&view, Qt::RightButton, Qt::NoModifier, at(0.25, 0.1));
    QTest::mouseMove(&view, at(0.5, 0.5));
    QTest::mouseMove(&view, at(0.75, 0.9));
    QTest::mouseRelease(&view, Qt::RightButton, Qt::NoModifier, at(0.75, 0.9));
    REQUIRE(test::wait_until([&] { return tab.study() != first_study; }, 5000));
    REQUIRE(test::wait_until(finished, 120000));
    CHECK(window.studyPanel().study().sweep[0].from == tab.study()->study.sweep[0].from);
    CHECK(window.studyPanel().study().sweep[0].from > 0.44);
    CHECK(window.isWindowModified());
    CHECK(window.documents().state().study_modified);
    CHECK_FALSE(window.documents().state().model_modified);

    // Back to the first picture: the panel holds the file's ranges again, and nothing is unsaved.
    tab.back();
    CHECK(window.studyPanel().study().sweep[0].from == 0.44);
    CHECK_FALSE(window.isWindowModified());
    tab.forward();
    CHECK(window.isWindowModified());
    {
        const QString asked = test::cancelled_close(window);
        CHECK(asked.contains("study"));
        CHECK(asked.contains("duffing_period1.json"));
    }
    CHECK(window.isVisible());
}

TEST_CASE("a recovered study is unsaved where it differs from its study file, or has none",
          "[gui][document][study]") {
    ui::MainWindow writer;
    open_settled(writer, period1_study);
    const ui::DocumentController& written = writer.documents();
    const QString as_on_disk = written.documentJson(written.studyForRun());
    type_field(writer.studyPanel(), "sweep[0].to", "0.48");
    REQUIRE(written.state().study_modified);
    const QString edited = written.documentJson(written.studyForRun());
    const QString model_text = writer.editorPanel().text();
    const QString model_path = written.state().model_path;
    const QString study_path = written.state().study_path;

    // The study as its file has it: only the model (recovered, so not on disk) is unsaved.
    {
        ui::MainWindow restored;
        restored.documents().restore(model_text, model_path, as_on_disk, study_path);
        CHECK_FALSE(restored.documents().state().study_modified);
        CHECK(restored.documents().state().model_modified);
    }
    // The edited study: unsaved, and shown as edited.
    {
        ui::MainWindow restored;
        restored.documents().restore(model_text, model_path, edited, study_path);
        CHECK(restored.documents().state().study_modified);
        CHECK(restored.isWindowModified());
        CHECK(restored.studyPanel().study().sweep[0].to == 0.48);
        // Edited back to the file's range: the study is clean, the recovered model still is not.
        type_field(restored.studyPanel(), "sweep[0].to", "0.5");
        CHECK_FALSE(restored.documents().state().study_modified);
    }
    // A study without a file: nothing on disk holds it.
    {
        ui::MainWindow restored;
        restored.documents().restore(model_text, model_path, as_on_disk, QString());
        CHECK(restored.documents().state().study_modified);
    }
}
