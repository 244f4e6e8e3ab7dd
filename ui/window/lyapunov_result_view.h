// Lyapunov exponents against one swept value, drawn by LyapunovChart (Qt Charts).
#pragma once

#include "ui/window/result_view.h"

namespace bif::ui {

class LyapunovChart;

class LyapunovResultView : public ResultView {
    Q_OBJECT
  public:
    LyapunovResultView(std::shared_ptr<const study::ResolvedStudy> study, QWidget* parent);

    QWidget* widget() override;
    void begin(std::shared_ptr<const study::ResolvedStudy> study) override;
    void addBlock(const jobs::ResultBlock& block) override;
    void setResult(std::shared_ptr<const study::Result> result) override;
    void setStale(bool stale) override;
    QImage renderImage(QSize size) override;
    bool writeSvg(const QString& path, QSize size) override;

  private:
    LyapunovChart* chart_;
};

} // namespace bif::ui
