#include "ui/window/trajectory_result_view.h"

#include "ui/charts/trajectory_chart.h"
#include "ui/charts/trajectory_data.h"

#include <QHBoxLayout>

namespace bif::ui {

TrajectoryResultView::TrajectoryResultView(QWidget* parent)
    : ResultView(parent), container_(new QWidget(parent)),
      series_(new TrajectoryChart(TrajectoryChart::Mode::TimeSeries, container_)),
      phase_(new TrajectoryChart(TrajectoryChart::Mode::PhasePortrait, container_)) {
    auto* layout = new QHBoxLayout(container_);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(series_, 3);
    layout->addWidget(phase_, 2);
}

void TrajectoryResultView::begin(std::shared_ptr<const study::ResolvedStudy>) {}

void TrajectoryResultView::addBlock(const jobs::ResultBlock& block) {
    // One system: its block is the whole result.
    setResult(block.result);
}

void TrajectoryResultView::setResult(std::shared_ptr<const study::Result> result) {
    auto data = std::make_shared<const TrajectoryData>(trajectory_from_result(*result));
    series_->setData(data);
    phase_->setData(data);
}

void TrajectoryResultView::setStale(bool stale) {
    container_->setEnabled(!stale);
}

QImage TrajectoryResultView::renderImage(QSize size) {
    return series_->renderImage(size);
}

bool TrajectoryResultView::writeSvg(const QString& path, QSize size) {
    return series_->writeSvg(path, size);
}

} // namespace bif::ui
