// The phase-plane view of a model: two states as axes (the others held at their fixed or initial
// values), nullclines, direction field and equilibria, redrawn on a worker thread whenever the axes,
// the window or the slider's parameter change; a click starts a trajectory forward and backward in
// time, kept beside the earlier ones or replacing them. Exports PNG, SVG and CSV, and gives its view
// back as a phase_plane study (what `bifscope-cli plot` draws).
#pragma once

#include "engine/analysis/phase_plane_portrait.h"
#include "engine/analysis/phase_plane_trajectory.h"
#include "engine/study/resolved_study.h"
#include "ui/plot/phase_plane_figure.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;

namespace bif::codegen {
class HostModel;
}

namespace bif::ui {

class PhasePlaneCanvas;
class PhasePlaneWorker;

class PhasePlanePanel : public QWidget {
    Q_OBJECT
  public:
    explicit PhasePlanePanel(QWidget* parent = nullptr);
    ~PhasePlanePanel() override;

    // Shows the phase plane of a resolved phase_plane study; false (and `why`) when its model has none.
    bool setStudy(std::shared_ptr<const study::ResolvedStudy> study, QString* why = nullptr);
    // The view as a study: axes, window, parameters with the slider's value, kept trajectories.
    study::Study study() const;
    QString title() const;
    // The folder the study's relative model path starts from.
    std::string baseDirectory() const { return study_ ? study_->base_directory : std::string(); }

    void setKeepTrajectories(bool keep);
    void clearTrajectories();
    // Asks for the trajectory through `start` (as a click does).
    void startTrajectory(analysis::PlanePoint start);

    // Empty on success, else why not.
    QString exportPng(const QString& path, QSize size) const;
    QString exportSvg(const QString& path, QSize size) const;
    QString exportCsv(const QString& path) const;

    // For tests and the status line.
    const plot::PhasePlaneScene& scene() const { return scene_; }
    bool busy() const;
    double lastRedrawMilliseconds() const { return last_redraw_ms_; }
    PhasePlaneCanvas& canvas() { return *canvas_; }
    QSlider& slider() { return *slider_; }
    QComboBox& xAxis() { return *x_axis_; }
    QComboBox& yAxis() { return *y_axis_; }
    QComboBox& parameterChooser() { return *parameter_; }
    double parameterValue() const;

  signals:
    void hoverText(const QString& text);
    void message(const QString& text, bool is_error);
    // The view that study() gives back may have changed (axes, window, slider, trajectories).
    void studyChanged();

  private:
    void buildControls();
    void fillChoosers();
    void chooseParameter(int slot);
    void sliderMoved(int position);
    void axesChosen();
    void zoom(analysis::PlanePoint centre, double factor);
    void redraw();
    void requestTrajectory(std::size_t index);
    analysis::PlanarSystem system() const;
    analysis::PlanarTrajectorySettings trajectorySettings() const;
    void portraitArrived(quint64 request, std::shared_ptr<const analysis::PhasePortrait> portrait, double ms);
    void trajectoryArrived(quint64 tag, const analysis::PlanarTrajectory& trajectory);
    void updateScene();
    void updateStatus();
    void exportWithDialog(int kind);

    std::shared_ptr<const study::ResolvedStudy> study_;
    std::shared_ptr<const codegen::HostModel> model_;
    std::vector<double> parameters_; // user parameters, the slider's one included
    int x_ = 0, y_ = 1;
    analysis::PlaneWindow window_;
    int slider_slot_ = -1;
    double slider_from_ = 0.0, slider_to_ = 1.0;
    std::vector<analysis::PlanePoint> starts_;
    std::vector<std::optional<analysis::PlanarTrajectory>> trajectories_; // one per start
    std::vector<bool> awaited_; // per start: a trajectory of the current plane is still to come
    bool keep_ = false;
    quint64 generation_ = 1; // of the plane: trajectories of an older one are dropped
    quint64 shown_request_ = 0;
    quint64 last_request_ = 0;
    quint64 first_wanted_request_ = 0; // portraits of earlier axes are not shown
    double last_redraw_ms_ = 0.0;
    plot::PhasePlaneScene scene_;

    PhasePlaneWorker* worker_;
    PhasePlaneCanvas* canvas_;
    QComboBox* x_axis_;
    QComboBox* y_axis_;
    QComboBox* parameter_;
    QSlider* slider_;
    QLabel* value_;
    QCheckBox* keep_box_;
    QPushButton* clear_;
    QLabel* status_;
    bool filling_ = false;
};

} // namespace bif::ui
