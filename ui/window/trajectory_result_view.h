// A trajectory study's result: time series and phase portrait side by side (TrajectoryChart).
#pragma once

#include "ui/window/result_view.h"

namespace bif::ui {

class TrajectoryChart;

class TrajectoryResultView : public ResultView {
    Q_OBJECT
  public:
    explicit TrajectoryResultView(QWidget* parent);

    QWidget* widget() override { return container_; }
    void begin(std::shared_ptr<const study::ResolvedStudy> study) override;
    void addBlock(const jobs::ResultBlock& block) override;
    void setResult(std::shared_ptr<const study::Result> result) override;
    void setStale(bool stale) override;
    QImage renderImage(QSize size) override;
    bool writeSvg(const QString& path, QSize size) override;

  private:
    QWidget* container_;
    TrajectoryChart* series_;
    TrajectoryChart* phase_;
};

} // namespace bif::ui
