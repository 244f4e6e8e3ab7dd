#include "ui/charts/chart_view.h"

#include <QMouseEvent>

namespace bif::ui {

ChartView::ChartView(QChart* chart, QWidget* parent) : QChartView(chart, parent) {
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);
}

bool ChartView::insidePlot(QPointF pixel) const {
    return !chart()->series().isEmpty() && chart()->plotArea().contains(mapToScene(pixel.toPoint()));
}

void ChartView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pixel = event->position();
    if (insidePlot(pixel))
        emit hovered(chart()->mapToValue(mapToScene(pixel.toPoint())), pixel);
    else
        emit left();
    QChartView::mouseMoveEvent(event);
}

void ChartView::mousePressEvent(QMouseEvent* event) {
    const QPointF pixel = event->position();
    if (event->button() == Qt::LeftButton && insidePlot(pixel))
        emit clicked(chart()->mapToValue(mapToScene(pixel.toPoint())), pixel);
    QChartView::mousePressEvent(event);
}

void ChartView::leaveEvent(QEvent* event) {
    emit left();
    QChartView::leaveEvent(event);
}

} // namespace bif::ui
