#include "ui/window/lyapunov_result_view.h"

#include "ui/charts/lyapunov_chart.h"

namespace bif::ui {

LyapunovResultView::LyapunovResultView(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent)
    : ResultView(parent), chart_(new LyapunovChart(std::move(study), parent)) {
    connect(chart_, &LyapunovChart::systemClicked, this, &ResultView::systemClicked);
}

QWidget* LyapunovResultView::widget() {
    return chart_;
}
void LyapunovResultView::begin(std::shared_ptr<const study::ResolvedStudy>) {
    chart_->clear();
}
void LyapunovResultView::addBlock(const jobs::ResultBlock& block) {
    chart_->addBlock(block);
}
void LyapunovResultView::setResult(std::shared_ptr<const study::Result> result) {
    chart_->setResult(*result);
}
void LyapunovResultView::setStale(bool stale) {
    chart_->setStale(stale);
}
QImage LyapunovResultView::renderImage(QSize size) {
    return chart_->renderImage(size);
}
bool LyapunovResultView::writeSvg(const QString& path, QSize size) {
    return chart_->writeSvg(path, size);
}

} // namespace bif::ui
