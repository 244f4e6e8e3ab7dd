#include "ui/phase/phase_plane_panel.h"

#include "engine/codegen/host_model.h"
#include "ui/phase/phase_plane_canvas.h"
#include "ui/phase/phase_plane_worker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace bif::ui {

namespace {

constexpr int slider_steps = 1000;
constexpr quint64 slots_per_generation = 1u << 20; // trajectory tags: generation * this + index

QString number_text(double v) {
    return QString::number(v, 'g', 4);
}

} // namespace

PhasePlanePanel::PhasePlanePanel(QWidget* parent)
    : QWidget(parent), worker_(new PhasePlaneWorker(this)), canvas_(new PhasePlaneCanvas(this)),
      x_axis_(new QComboBox(this)), y_axis_(new QComboBox(this)), parameter_(new QComboBox(this)),
      slider_(new QSlider(Qt::Horizontal, this)), value_(new QLabel(this)),
      keep_box_(new QCheckBox(tr("Keep trajectories"), this)),
      clear_(new QPushButton(tr("Clear trajectories"), this)), status_(new QLabel(this)) {
    buildControls();
    canvas_->setScene(&scene_);
    connect(worker_, &PhasePlaneWorker::portraitReady, this, &PhasePlanePanel::portraitArrived);
    connect(worker_, &PhasePlaneWorker::trajectoryReady, this, &PhasePlanePanel::trajectoryArrived);
    connect(worker_, &PhasePlaneWorker::failed, this, [this](const QString& why) {
        status_->setText(tr("Cannot draw: %1").arg(why));
        // nothing more comes for what failed: do not wait for it
        shown_request_ = last_request_;
        awaited_.assign(awaited_.size(), false);
        emit message(why, true);
    });
    connect(canvas_, &PhasePlaneCanvas::pointClicked, this, &PhasePlanePanel::startTrajectory);
    connect(canvas_, &PhasePlaneCanvas::zoomRequested, this, &PhasePlanePanel::zoom);
    connect(canvas_, &PhasePlaneCanvas::hoverText, this, &PhasePlanePanel::hoverText);
}

PhasePlanePanel::~PhasePlanePanel() = default;

void PhasePlanePanel::buildControls() {
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("x axis"), this));
    top->addWidget(x_axis_);
    top->addWidget(new QLabel(tr("y axis"), this));
    top->addWidget(y_axis_);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Parameter"), this));
    top->addWidget(parameter_);
    slider_->setRange(0, slider_steps);
    slider_->setMinimumWidth(160);
    top->addWidget(slider_, 1);
    value_->setMinimumWidth(value_->fontMetrics().horizontalAdvance(QStringLiteral("mu = -0.0000e+00")));
    top->addWidget(value_);

    auto* bottom = new QHBoxLayout;
    bottom->addWidget(keep_box_);
    bottom->addWidget(clear_);
    auto* export_button = new QToolButton(this);
    export_button->setText(tr("Export"));
    export_button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(export_button);
    menu->addAction(tr("Picture (PNG)…"), this, [this] { exportWithDialog(0); });
    menu->addAction(tr("Picture (SVG)…"), this, [this] { exportWithDialog(1); });
    menu->addAction(tr("Nullclines and trajectories (CSV)…"), this, [this] { exportWithDialog(2); });
    export_button->setMenu(menu);
    bottom->addWidget(export_button);
    bottom->addWidget(status_, 1);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(top);
    layout->addLayout(bottom);
    layout->addWidget(canvas_, 1);
    x_axis_->setToolTip(tr("The state on the horizontal axis"));
    y_axis_->setToolTip(tr("The state on the vertical axis"));
    slider_->setToolTip(tr("Redraws nullclines, field and equilibria as it moves"));
    canvas_->setToolTip(tr("Click: a trajectory forward and backward in time · wheel: zoom"));

    connect(x_axis_, &QComboBox::currentIndexChanged, this, &PhasePlanePanel::axesChosen);
    connect(y_axis_, &QComboBox::currentIndexChanged, this, &PhasePlanePanel::axesChosen);
    connect(parameter_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (filling_) return;
        chooseParameter(parameter_->itemData(index).toInt());
        emit studyChanged();
    });
    connect(slider_, &QSlider::valueChanged, this, &PhasePlanePanel::sliderMoved);
    connect(keep_box_, &QCheckBox::toggled, this, [this](bool on) { keep_ = on; });
    connect(clear_, &QPushButton::clicked, this, &PhasePlanePanel::clearTrajectories);
}

bool PhasePlanePanel::setStudy(std::shared_ptr<const study::ResolvedStudy> study, QString* why) {
    try {
        model_ =
            std::make_shared<const codegen::HostModel>(study->codegen_request(codegen::Precision::Double));
    } catch (const std::exception& e) {
        if (why) *why = QString::fromStdString(e.what());
        return false;
    }
    study_ = std::move(study);
    const auto& s = study_->study.phase_plane;
    parameters_ = study_->parameters;
    x_ = static_cast<int>(study_->phase_plane.x);
    y_ = static_cast<int>(study_->phase_plane.y);
    window_ = {s.x_from, s.x_to, s.y_from, s.y_to};
    slider_slot_ = study_->phase_plane.slider;
    slider_from_ = s.slider_from;
    slider_to_ = s.slider_to;
    starts_.clear();
    trajectories_.clear();
    awaited_.clear();
    for (const auto& [x, y] : s.starts)
        starts_.push_back({x, y});
    trajectories_.resize(starts_.size());
    keep_ = starts_.size() > 1;
    keep_box_->setChecked(keep_);
    fillChoosers();
    if (slider_slot_ < 0 && !parameters_.empty())
        chooseParameter(0);
    else
        chooseParameter(slider_slot_);
    ++generation_;
    redraw();
    for (std::size_t i = 0; i < starts_.size(); ++i)
        requestTrajectory(i);
    return true;
}

void PhasePlanePanel::fillChoosers() {
    filling_ = true;
    const model::Model& m = *study_->model;
    x_axis_->clear();
    y_axis_->clear();
    for (const auto& state : m.states) {
        x_axis_->addItem(QString::fromStdString(state.name));
        y_axis_->addItem(QString::fromStdString(state.name));
    }
    x_axis_->setCurrentIndex(x_);
    y_axis_->setCurrentIndex(y_);
    parameter_->clear();
    for (std::size_t i = 0; i < m.parameters.size(); ++i)
        parameter_->addItem(QString::fromStdString(m.parameters[i].name), static_cast<int>(i));
    parameter_->setEnabled(!m.parameters.empty());
    slider_->setEnabled(!m.parameters.empty());
    filling_ = false;
}

// The slider covers the study's range for its own parameter; for another, [0, 2 v] about the value
// v (or [-1, 1] about 0), widened to hold v.
void PhasePlanePanel::chooseParameter(int slot) {
    if (slot < 0 || slot >= static_cast<int>(parameters_.size())) {
        slider_slot_ = -1;
        value_->clear();
        return;
    }
    const double v = parameters_[static_cast<std::size_t>(slot)];
    const bool study_range = slot == study_->phase_plane.slider;
    if (!study_range || slot != slider_slot_) {
        slider_from_ = study_range ? study_->study.phase_plane.slider_from
                       : v == 0.0  ? -1.0
                                   : std::min(0.0, 2 * v);
        slider_to_ = study_range ? study_->study.phase_plane.slider_to
                     : v == 0.0  ? 1.0
                                 : std::max(0.0, 2 * v);
    }
    slider_from_ = std::min(slider_from_, v);
    slider_to_ = std::max(slider_to_, v);
    slider_slot_ = slot;
    filling_ = true;
    parameter_->setCurrentIndex(parameter_->findData(slot));
    slider_->setValue(
        static_cast<int>(std::lround((v - slider_from_) / (slider_to_ - slider_from_) * slider_steps)));
    slider_->setToolTip(
        tr("%1 from %2 to %3")
            .arg(parameter_->currentText(), number_text(slider_from_), number_text(slider_to_)));
    filling_ = false;
    value_->setText(QStringLiteral("%1 = %2").arg(parameter_->currentText(), number_text(v)));
}

void PhasePlanePanel::sliderMoved(int position) {
    if (filling_ || slider_slot_ < 0) return;
    const double v = slider_from_ + (slider_to_ - slider_from_) * position / slider_steps;
    parameters_[static_cast<std::size_t>(slider_slot_)] = v;
    value_->setText(QStringLiteral("%1 = %2").arg(parameter_->currentText(), number_text(v)));
    ++generation_;
    redraw();
    for (std::size_t i = 0; i < starts_.size(); ++i)
        requestTrajectory(i);
    emit studyChanged();
}

double PhasePlanePanel::parameterValue() const {
    return slider_slot_ < 0 ? 0.0 : parameters_[static_cast<std::size_t>(slider_slot_)];
}

void PhasePlanePanel::axesChosen() {
    if (filling_ || !study_) return;
    const int x = x_axis_->currentIndex(), y = y_axis_->currentIndex();
    if (x < 0 || y < 0) return;
    if (x == y) {
        // the other chooser takes the axis this one left
        filling_ = true;
        (sender() == x_axis_ ? y_axis_ : x_axis_)->setCurrentIndex(sender() == x_axis_ ? x_ : y_);
        filling_ = false;
        return axesChosen();
    }
    x_ = x;
    y_ = y;
    // the trajectories were drawn in other coordinates
    starts_.clear();
    trajectories_.clear();
    awaited_.clear();
    ++generation_;
    scene_.portrait.reset();
    redraw();
    first_wanted_request_ = last_request_;
    emit studyChanged();
}

void PhasePlanePanel::zoom(analysis::PlanePoint c, double factor) {
    window_ = {c.x + (window_.x_from - c.x) * factor, c.x + (window_.x_to - c.x) * factor,
               c.y + (window_.y_from - c.y) * factor, c.y + (window_.y_to - c.y) * factor};
    redraw(); // the trajectories stay: same plane, new window
    emit studyChanged();
}

analysis::PlanarSystem PhasePlanePanel::system() const {
    std::vector<double> state =
        study_->phase_plane.state.empty() ? study_->initial_state : study_->phase_plane.state;
    return analysis::PlanarSystem(model_, x_, y_, std::move(state), parameters_, study_->study.t0);
}

analysis::PlanarTrajectorySettings PhasePlanePanel::trajectorySettings() const {
    analysis::PlanarTrajectorySettings ts;
    ts.duration = study_->study.phase_plane.t_end;
    ts.window = window_;
    return ts;
}

void PhasePlanePanel::redraw() {
    if (!study_) return;
    analysis::PortraitSettings settings;
    settings.window = window_;
    settings.grid = study_->study.phase_plane.grid;
    settings.arrows = study_->study.phase_plane.arrows;
    last_request_ = worker_->requestPortrait(system(), settings);
    updateScene();
}

void PhasePlanePanel::requestTrajectory(std::size_t index) {
    awaited_.resize(starts_.size());
    awaited_[index] = true;
    worker_->requestTrajectory(system(), starts_[index], trajectorySettings(),
                               generation_ * slots_per_generation + index);
}

void PhasePlanePanel::startTrajectory(analysis::PlanePoint start) {
    if (!study_) return;
    if (!keep_) {
        starts_.clear();
        trajectories_.clear();
        awaited_.clear();
        ++generation_; // a trajectory still coming for the replaced start is dropped
    }
    starts_.push_back(start);
    trajectories_.emplace_back();
    requestTrajectory(starts_.size() - 1);
    updateScene();
    emit studyChanged();
}

void PhasePlanePanel::setKeepTrajectories(bool keep) {
    keep_box_->setChecked(keep);
}

void PhasePlanePanel::clearTrajectories() {
    starts_.clear();
    trajectories_.clear();
    awaited_.clear();
    ++generation_;
    // the portrait in flight belongs to the same plane: keep it
    updateScene();
    emit studyChanged();
}

void PhasePlanePanel::portraitArrived(quint64 request,
                                      std::shared_ptr<const analysis::PhasePortrait> portrait, double ms) {
    if (request < shown_request_ || request < first_wanted_request_) return;
    shown_request_ = request;
    scene_.portrait = std::move(portrait);
    last_redraw_ms_ = ms;
    updateScene();
}

void PhasePlanePanel::trajectoryArrived(quint64 tag, const analysis::PlanarTrajectory& trajectory) {
    if (tag / slots_per_generation != generation_) return;
    const std::size_t index = tag % slots_per_generation;
    if (index >= trajectories_.size()) return;
    trajectories_[index] = trajectory;
    if (index < awaited_.size()) awaited_[index] = false;
    updateScene();
}

void PhasePlanePanel::updateScene() {
    const model::Model& m = *study_->model;
    scene_.x_name = QString::fromStdString(m.states[static_cast<std::size_t>(x_)].name);
    scene_.y_name = QString::fromStdString(m.states[static_cast<std::size_t>(y_)].name);
    scene_.window = window_;
    scene_.title = title();
    scene_.trajectories.clear();
    for (const auto& t : trajectories_)
        if (t) scene_.trajectories.push_back(*t);
    // a portrait of other axes must not be drawn under these names
    canvas_->update();
    updateStatus();
}

void PhasePlanePanel::updateStatus() {
    if (!scene_.portrait) return status_->setText(tr("Computing…"));
    const std::size_t e = scene_.portrait->equilibria.size(), t = scene_.trajectories.size();
    status_->setText(tr("%1 %2 in view · %3 %4 · redrawn in %5 ms")
                         .arg(e)
                         .arg(e == 1 ? tr("equilibrium") : tr("equilibria"))
                         .arg(t)
                         .arg(t == 1 ? tr("trajectory") : tr("trajectories"))
                         .arg(last_redraw_ms_, 0, 'f', 1));
}

// The study's title, or the axes; with the slider's parameter and value.
QString PhasePlanePanel::title() const {
    if (!study_) return tr("Phase plane");
    const model::Model& m = *study_->model;
    QString t = !study_->study.title.empty()
                    ? QString::fromStdString(study_->study.title)
                    : tr("Phase plane %1, %2")
                          .arg(QString::fromStdString(m.states[static_cast<std::size_t>(x_)].name),
                               QString::fromStdString(m.states[static_cast<std::size_t>(y_)].name));
    if (slider_slot_ >= 0)
        t += QStringLiteral(" — %1 = %2")
                 .arg(QString::fromStdString(m.parameters[static_cast<std::size_t>(slider_slot_)].name),
                      number_text(parameterValue()));
    return t;
}

study::Study PhasePlanePanel::study() const {
    study::Study s = study_ ? study_->study : study::Study{};
    if (!study_) return s;
    const model::Model& m = *study_->model;
    auto& p = s.phase_plane;
    p.x = m.states[static_cast<std::size_t>(x_)].name;
    p.y = m.states[static_cast<std::size_t>(y_)].name;
    p.x_from = window_.x_from;
    p.x_to = window_.x_to;
    p.y_from = window_.y_from;
    p.y_to = window_.y_to;
    p.starts.clear();
    for (const auto& q : starts_)
        p.starts.emplace_back(q.x, q.y);
    if (slider_slot_ >= 0) {
        p.slider = m.parameters[static_cast<std::size_t>(slider_slot_)].name;
        p.slider_from = slider_from_;
        p.slider_to = slider_to_;
        bool found = false;
        for (auto& [name, value] : s.parameters)
            if (name == p.slider) value = parameterValue(), found = true;
        if (!found) s.parameters.emplace_back(p.slider, parameterValue());
    }
    return s;
}

// Counted on this side: a result the worker has finished may still be on its way here.
bool PhasePlanePanel::busy() const {
    if (shown_request_ < last_request_) return true;
    for (std::size_t i = 0; i < starts_.size() && i < awaited_.size(); ++i)
        if (awaited_[i]) return true;
    return false;
}

QString PhasePlanePanel::exportPng(const QString& path, QSize size) const {
    return plot::export_phase_plane_png(scene_, size, path);
}

QString PhasePlanePanel::exportSvg(const QString& path, QSize size) const {
    return plot::export_phase_plane_svg(scene_, size, path);
}

QString PhasePlanePanel::exportCsv(const QString& path) const {
    return plot::export_phase_plane_csv(scene_, path);
}

void PhasePlanePanel::exportWithDialog(int kind) {
    static const char* filters[] = {"PNG (*.png)", "SVG (*.svg)", "CSV (*.csv)"};
    const QString path = QFileDialog::getSaveFileName(this, tr("Export phase plane"), {}, tr(filters[kind]));
    if (path.isEmpty()) return;
    const QSize size = canvas_->size().expandedTo(QSize(800, 600)) * 2;
    const QString failure = kind == 0   ? exportPng(path, size)
                            : kind == 1 ? exportSvg(path, size)
                                        : exportCsv(path);
    emit message(failure.isEmpty() ? tr("Exported %1").arg(path) : failure, !failure.isEmpty());
}

} // namespace bif::ui
