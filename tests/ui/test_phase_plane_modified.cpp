// A phase-plane tab's view (axes, window, slider parameter, trajectories) is a study of its own: a
// change of it marks the window modified until the view is saved or changed back to the one in its
// file; closing the window asks first, naming the phase-plane study, and Save writes it (Save as where
// the view has no file yet). The files are read back with the engine's reader, not the panel.
#include "engine/study/study_json.h"
#include "gui_test_support.h"
#include "ui/phase/phase_plane_canvas.h"
#include "ui/phase/phase_plane_panel.h"
#include "ui/window/document_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/phase_plane_documents.h"
#include "ui/window/plot_area.h"

#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWindow>
#include <catch2/catch.hpp>

using namespace bif;
using test::parameter;
using test::PromptAnswer;
using test::settled;
using test::shown_title;

namespace {

const QString vdp_study = "tests/ui/data/vanderpol_phase_plane.json"; // mu = 1, slider over [0, 4]

// Picks `path` in the next file dialog, as a user typing its name and pressing Save does.
class FileDialogAnswer {
  public:
    explicit FileDialogAnswer(const QString& path) {
        QObject::connect(&timer_, &QTimer::timeout, &timer_, [this, path] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            timer_.stop();
            asked = true;
            // The name typed into its name field (selectFile leaves a focused field as it is).
            auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
            if (name)
                name->setText(path);
            else
                dialog->selectFile(path);
            static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept, as its Save button
        });
        timer_.start(20);
    }

    bool asked = false;

  private:
    QTimer timer_;
};

// The slider covers mu in [0, 4] in 1000 steps: position 250 is the file's mu = 1.
void slide_to(ui::PhasePlanePanel& panel, int position) {
    panel.slider().setValue(position);
    QApplication::processEvents();
}

} // namespace

TEST_CASE("a phase plane's view marks the window modified until saved or changed back; closing asks, "
          "names it, and Save writes its file",
          "[gui][phase_plane][document]") {
    QTemporaryDir dir;
    const QString path = dir.filePath("vdp_view.json");
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ui::PhasePlaneDocuments& planes = window.phasePlanes();
    const ui::DocumentController& documents = window.documents();
    REQUIRE(window.openFile(test::source_path(vdp_study)));
    ui::PhasePlanePanel* panel = window.plotArea().currentPhasePlane();
    REQUIRE(panel);
    REQUIRE(settled(*panel));
    CHECK_FALSE(window.isWindowModified());
    CHECK_FALSE(planes.isModified(panel));
    CHECK(planes.path(panel) == QFileInfo(test::source_path(vdp_study)).absoluteFilePath());
    // A copy of our own to write to (its model path made absolute): still clean.
    REQUIRE(planes.saveTo(*panel, path));
    CHECK(planes.path(panel) == QFileInfo(path).absoluteFilePath());
    CHECK_FALSE(window.isWindowModified());
    REQUIRE(panel->slider().value() == 250);

    // The slider moved: the phase plane is modified, not the model, the study or its branches.
    slide_to(*panel, 500);
    CHECK(panel->parameterValue() == 2.0);
    CHECK(planes.isModified(panel));
    CHECK(window.isWindowModified());
    CHECK(documents.state().phase_plane_modified);
    CHECK_FALSE(documents.state().document_modified());
    CHECK(shown_title(window) == window.windowTitle().replace("[*]", "*"));
    // Moved back to the file's value: clean again.
    slide_to(*panel, 250);
    CHECK(panel->parameterValue() == 1.0);
    CHECK_FALSE(planes.isModified(panel));
    CHECK_FALSE(window.isWindowModified());
    CHECK(shown_title(window) == window.windowTitle().remove("[*]"));

    // Saved: clean, and the file holds the new value.
    slide_to(*panel, 500);
    REQUIRE(window.isWindowModified());
    REQUIRE(planes.save(*panel));
    CHECK_FALSE(planes.isModified(panel));
    CHECK_FALSE(window.isWindowModified());
    study::StudyReadResult written = study::read_study_file(path.toStdString());
    REQUIRE(written.study);
    CHECK(written.study->analysis == study::AnalysisKind::PhasePlane);
    CHECK(parameter(*written.study, "mu") == 2.0);
    // The saved value is now the one to come back to.
    slide_to(*panel, 250);
    CHECK(window.isWindowModified());
    slide_to(*panel, 500);
    CHECK_FALSE(window.isWindowModified());

    // Another edit, and the phase plane's other settings: a zoom, a trajectory.
    slide_to(*panel, 750);
    REQUIRE(settled(*panel));
    QTest::mouseClick(&panel->canvas(), Qt::LeftButton, {}, panel->canvas().positionOf({1.5, -2.0}));
    REQUIRE(settled(*panel));
    REQUIRE(window.isWindowModified());
    // A new model leaves the phase-plane tabs open: nothing of theirs is lost, nothing is asked.
    {
        PromptAnswer cancel(QMessageBox::Cancel);
        CHECK(window.documents().newModel());
        CHECK_FALSE(cancel.asked);
    }
    CHECK(window.plotArea().currentPhasePlane() == panel);
    CHECK(window.isWindowModified());

    // Closing asks, naming the phase-plane study's file and nothing else; Cancel keeps the view.
    {
        const QString asked = test::cancelled_close(window);
        CHECK(asked.contains("phase-plane"));
        CHECK(asked.contains("vdp_view.json"));
        CHECK_FALSE(asked.contains("branches"));
        CHECK_FALSE(asked.contains("untitled.ode"));
    }
    CHECK(window.isVisible());
    CHECK(window.isWindowModified());
    CHECK(panel->parameterValue() == 3.0);
    REQUIRE(panel->study().phase_plane.starts.size() == 1);

    // Save in the question writes the file, and the window closes clean.
    {
        PromptAnswer save(QMessageBox::Save);
        CHECK(window.close());
        CHECK(save.asked);
    }
    CHECK_FALSE(window.isVisible());
    CHECK_FALSE(window.isWindowModified());
    written = study::read_study_file(path.toStdString());
    REQUIRE(written.study);
    CHECK(parameter(*written.study, "mu") == 3.0);
    REQUIRE(written.study->phase_plane.starts.size() == 1);
    CHECK(written.study->phase_plane.starts[0].first == Approx(1.5).margin(0.05));
    CHECK(written.study->phase_plane.starts[0].second == Approx(-2.0).margin(0.05));
    // What was written opens again as the same view.
    const auto reloaded = study::load_study_file(path.toStdString());
    CHECK(reloaded.resolved);

    // Discard: the window closes and the file stays as saved.
    window.show();
    slide_to(*panel, 100);
    REQUIRE(window.isWindowModified());
    {
        PromptAnswer discard(QMessageBox::Discard);
        CHECK(window.close());
        CHECK(discard.asked);
    }
    CHECK_FALSE(window.isVisible());
    written = study::read_study_file(path.toStdString());
    REQUIRE(written.study);
    CHECK(parameter(*written.study, "mu") == 3.0);
}

TEST_CASE("a phase plane made from the edited study has no file: Save in the question asks where; "
          "closing its tab asks about it alone",
          "[gui][phase_plane][document]") {
    QTemporaryDir dir;
    const QString path = dir.filePath("vdp_new_view.json");
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    REQUIRE(window.openFile(test::source_path("resources/models/vanderpol.ode")));
    ui::PhasePlanePanel* panel = window.showPhasePlane();
    REQUIRE(panel);
    REQUIRE(settled(*panel));
    CHECK_FALSE(window.isWindowModified());
    CHECK(window.phasePlanes().path(panel).isEmpty());

    // Other axes are an edit too. The model has two states: y against x.
    panel->xAxis().setCurrentIndex(1);
    QApplication::processEvents();
    REQUIRE(panel->study().phase_plane.x == "y");
    CHECK(window.isWindowModified());
    {
        const QString asked = test::cancelled_close(window);
        CHECK(asked.contains("phase-plane"));
        CHECK(asked.contains("no file yet"));
    }
    {
        PromptAnswer save(QMessageBox::Save);
        FileDialogAnswer where(path);
        CHECK(window.close());
        CHECK(save.asked);
        CHECK(where.asked);
    }
    CHECK_FALSE(window.isVisible());
    CHECK(window.phasePlanes().path(panel).toStdString() == QFileInfo(path).absoluteFilePath().toStdString());
    study::StudyReadResult written = study::read_study_file(path.toStdString());
    REQUIRE(written.study);
    CHECK(written.study->phase_plane.x == "y");
    CHECK(written.study->phase_plane.y == "x");

    // Closing a modified tab asks about it alone: Cancel keeps the tab, Discard closes it and leaves
    // nothing to ask about.
    window.show();
    panel->xAxis().setCurrentIndex(0);
    QApplication::processEvents();
    REQUIRE(window.isWindowModified());
    QTabWidget& tabs = window.plotArea().tabs();
    {
        PromptAnswer cancel(QMessageBox::Cancel);
        emit tabs.tabCloseRequested(tabs.indexOf(panel));
        CHECK(cancel.asked);
        CHECK(cancel.text.contains("vdp_new_view.json"));
    }
    CHECK(tabs.indexOf(panel) >= 0);
    CHECK(window.isWindowModified());
    {
        PromptAnswer discard(QMessageBox::Discard);
        emit tabs.tabCloseRequested(tabs.indexOf(panel));
        CHECK(discard.asked);
    }
    REQUIRE(test::wait_until([&] { return !window.isWindowModified(); }, 5000));
    CHECK(tabs.count() == 0);
    {
        PromptAnswer cancel(QMessageBox::Cancel);
        CHECK(window.close());
        CHECK_FALSE(cancel.asked);
    }
    // The file keeps what Save wrote.
    written = study::read_study_file(path.toStdString());
    REQUIRE(written.study);
    CHECK(written.study->phase_plane.x == "y");
}
