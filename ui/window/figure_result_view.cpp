#include "ui/window/figure_result_view.h"

#include "ui/plot/figure_export.h"
#include "ui/plot/result_figure.h"
#include "ui/plot/zoomed_study.h"
#include "ui/views/plot_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace bif::ui {

FigureResultView::FigureResultView(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent)
    : ResultView(parent), container_(new QWidget(parent)), view_(new PlotView(container_)),
      quantity_(new QComboBox(container_)), scale_(new QComboBox(container_)),
      log_y_(new QCheckBox(tr("log y"), container_)), study_(study) {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(new QLabel(tr("Show:"), container_));
    bar->addWidget(quantity_);
    bar->addSpacing(12);
    scale_->addItems({tr("log density"), tr("linear density")});
    bar->addWidget(scale_);
    bar->addWidget(log_y_);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(container_);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);

    figure_ = makeFigure(study);
    view_->setFigure(figure_);
    shown_once_ = true;
    fillQuantities();
    connect(quantity_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!figure_ || name.isEmpty()) return;
        figure_->setQuantity(name);
        syncLogY();
        view_->figureChanged();
    });
    connect(log_y_, &QCheckBox::toggled, this, [this](bool on) {
        if (!figure_) return;
        const QString refused = figure_->setLogY(on);
        if (!refused.isEmpty()) emit hoverText(tr("No log y axis: %1").arg(refused));
        syncLogY();
        view_->figureChanged();
    });
    connect(scale_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (!figure_) return;
        figure_->setDensityScale(index == 0 ? plot::DensityScale::Log : plot::DensityScale::Linear);
        view_->figureChanged();
    });
    connect(view_, &PlotView::hovered, this, &ResultView::hoverText);
    connect(view_, &PlotView::renderPathChanged, this, &ResultView::renderPathChanged);
    connect(view_, &PlotView::systemClicked, this, &ResultView::systemClicked);
    connect(view_, &PlotView::pointMenuRequested, this, &ResultView::pointMenuRequested);
    connect(view_, &PlotView::continueRequested, this, &ResultView::continueRequested);
    connect(view_, &PlotView::viewRequested, this, [this](const plot::PlotRange& range) {
        const QSizeF pixels = view_->plotArea().size();
        emit zoomRequested(plot::zoomed_study(study_->study, range, pixels.toSize()));
    });
}

std::shared_ptr<plot::ResultFigure>
FigureResultView::makeFigure(std::shared_ptr<const study::ResolvedStudy> study, bool kept) const {
    auto figure = std::make_shared<plot::ResultFigure>(std::move(study), kept);
    if (figure_) {
        figure->setQuantity(figure_->quantities().value(figure_->quantity()));
        figure->setDensityScale(figure_->densityScale());
        figure->setLogY(figure_->logY());
    }
    return figure;
}

void FigureResultView::fillQuantities() {
    const QSignalBlocker block(quantity_);
    quantity_->clear();
    quantity_->addItems(figure_->quantities());
    quantity_->setCurrentIndex(figure_->quantity());
    scale_->setVisible(figure_->kind() == plot::FigureKind::Diagram);
    log_y_->setVisible(figure_->kind() == plot::FigureKind::Diagram);
    log_y_->setEnabled(figure_->kind() == plot::FigureKind::Diagram);
    syncLogY();
}

void FigureResultView::syncLogY() {
    // The figure may refuse or drop a log axis (values <= 0): the box shows what is in force.
    const QSignalBlocker block(log_y_);
    log_y_->setChecked(figure_->logY());
    log_y_->setToolTip(figure_->logYRefusal().isEmpty()
                           ? tr("Logarithmic y axis")
                           : tr("No log y axis: %1").arg(figure_->logYRefusal()));
}

void FigureResultView::show(std::shared_ptr<plot::ResultFigure> figure) {
    figure_ = std::move(figure);
    view_->replaceFigure(figure_);
    fillQuantities();
}

void FigureResultView::begin(std::shared_ptr<const study::ResolvedStudy> study) {
    study_ = study;
    keepPictureAsBackdrop();
    pending_ = makeFigure(std::move(study));
}

void FigureResultView::beginKept(std::shared_ptr<const study::ResolvedStudy> study) {
    study_ = study;
    keepPictureAsBackdrop();
    pending_ = makeFigure(std::move(study), true);
}

// A zoom recomputes into a new figure whose first passes are coarse: the picture on screen stays,
// rescaled to the new view, under them until the new run has every system.
void FigureResultView::keepPictureAsBackdrop() {
    if (figure_ && figure_->systemsReceived() > 0 && !figure_->image().isNull())
        view_->setBackdrop(figure_->image(), figure_->imageRange());
}

std::optional<int> FigureResultView::keptMapDevice() const {
    if (!figure_) return -1;
    return view_->cudaDevice();
}

void FigureResultView::addBlock(const jobs::ResultBlock& block) {
    if (!pending_) return;
    pending_->addBlock(block);
    if (pending_ != figure_) show(pending_);
    if (figure_->systemsReceived() >= study_->system_count()) view_->clearBackdrop();
    if (log_y_->isChecked() != figure_->logY()) syncLogY();
    view_->figureChanged();
}

void FigureResultView::setResult(std::shared_ptr<const study::Result> result) {
    // A kept result needs a figure made for one (a zoom's history brings them back too); a run that
    // could not keep its map brings every cell to the host, which an ordinary figure shows whole.
    const bool kept = result->kept != nullptr;
    const bool whole = result->status.size() == result->system_count;
    if (!pending_ || (kept && !pending_->keptOnDevice()) || (!kept && whole && pending_->keptOnDevice()))
        pending_ = makeFigure(study_, kept);
    pending_->setResult(std::move(result));
    if (pending_ != figure_) show(pending_);
    view_->clearBackdrop();
    syncLogY();
    view_->figureChanged();
}

void FigureResultView::setStale(bool stale) {
    view_->setStale(stale);
}

QImage FigureResultView::renderImage(QSize size) {
    plot::PaintOptions options;
    options.branches = view_->branches();
    return plot::render_figure(*figure_, view_->range(), size, options);
}

bool FigureResultView::writeSvg(const QString& path, QSize size) {
    plot::PaintOptions options;
    options.branches = view_->branches();
    return plot::export_svg(*figure_, view_->range(), size, path, options).isEmpty();
}

void FigureResultView::setBranches(std::shared_ptr<const plot::Overlays> branches) {
    view_->setBranches(std::move(branches));
}

QString FigureResultView::renderPath() const {
    return view_->renderPath();
}

void FigureResultView::back() {
    view_->back();
}
void FigureResultView::forward() {
    view_->forward();
}
void FigureResultView::resetView() {
    view_->resetView();
}

} // namespace bif::ui
