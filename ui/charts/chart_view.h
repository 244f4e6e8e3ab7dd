// A QChartView that reports the pointer in value coordinates: hover and click positions for the
// charts' read-outs and system picking, without each chart subclassing the view itself.
#pragma once

#include <QChartView>
#include <QPointF>

namespace bif::ui {

class ChartView : public QChartView {
    Q_OBJECT
  public:
    explicit ChartView(QChart* chart, QWidget* parent = nullptr);

  signals:
    // `value` is in the coordinates of the chart's first series; `pixel` in the view's.
    void hovered(QPointF value, QPointF pixel);
    void left();
    void clicked(QPointF value, QPointF pixel);

  protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    bool insidePlot(QPointF pixel) const;
};

} // namespace bif::ui
