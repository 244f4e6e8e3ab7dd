#include "ui/phase/phase_plane_canvas.h"

#include "engine/analysis/phase_plane_csv.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace bif::ui {

PhasePlaneCanvas::PhasePlaneCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setCursor(Qt::CrossCursor);
}

void PhasePlaneCanvas::setScene(const plot::PhasePlaneScene* scene) {
    scene_ = scene;
    update();
}

QRectF PhasePlaneCanvas::plotRect() const {
    if (!scene_) return QRectF(rect());
    return plot::PhasePlaneFigure(*scene_, font()).plotRect(QRectF(rect()), this);
}

QPoint PhasePlaneCanvas::positionOf(analysis::PlanePoint point) const {
    if (!scene_) return {};
    return plot::PhasePlaneFigure(*scene_, font()).toPixel(plotRect(), point).toPoint();
}

void PhasePlaneCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    if (!scene_) {
        p.fillRect(rect(), Qt::white);
        return;
    }
    plot::PhasePlaneFigure(*scene_, font()).paint(p, QRectF(rect()));
}

void PhasePlaneCanvas::mousePressEvent(QMouseEvent* event) {
    if (!scene_ || event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    const QRectF plot = plotRect();
    if (!plot.contains(event->position())) return;
    emit pointClicked(plot::PhasePlaneFigure(*scene_, font()).toPlane(plot, event->position()));
}

void PhasePlaneCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (!scene_) return;
    const QRectF plot = plotRect();
    if (!plot.contains(event->position())) return;
    const auto q = plot::PhasePlaneFigure(*scene_, font()).toPlane(plot, event->position());
    emit hoverText(QStringLiteral("%1 = %2, %3 = %4")
                       .arg(scene_->x_name)
                       .arg(q.x, 0, 'g', 5)
                       .arg(scene_->y_name)
                       .arg(q.y, 0, 'g', 5));
}

void PhasePlaneCanvas::wheelEvent(QWheelEvent* event) {
    if (!scene_ || event->angleDelta().y() == 0) return;
    const QRectF plot = plotRect();
    const auto centre = plot::PhasePlaneFigure(*scene_, font()).toPlane(plot, event->position());
    emit zoomRequested(centre, std::pow(0.85, event->angleDelta().y() / 120.0));
    event->accept();
}

bool PhasePlaneCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && scene_) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto e = plot::PhasePlaneFigure(*scene_, font()).equilibriumNear(plotRect(), help->pos());
        if (e)
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("%1 = %2, %3 = %4\n%5")
                                   .arg(scene_->x_name)
                                   .arg(e->at.x, 0, 'g', 6)
                                   .arg(scene_->y_name)
                                   .arg(e->at.y, 0, 'g', 6)
                                   .arg(QString::fromStdString(analysis::describe_equilibrium(*e))),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace bif::ui
