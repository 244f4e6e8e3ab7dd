#include "ui/views/branch_view.h"

#include "ui/plot/branch_painter.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace bif::ui {

namespace {

constexpr double hover_px = 6.0;

} // namespace

BranchView::BranchView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setMinimumSize(320, 240);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void BranchView::setFigure(std::shared_ptr<plot::BranchFigure> figure) {
    figure_ = std::move(figure);
    if (figure_) range_ = figure_->fullRange();
    update();
}

void BranchView::setRange(const plot::PlotRange& range) {
    range_ = range;
    update();
}

void BranchView::setStale(bool stale) {
    stale_ = stale;
    update();
}

plot::PaintOptions BranchView::paintOptions() const {
    plot::PaintOptions o;
    o.stale = stale_;
    o.background = palette().color(QPalette::Base);
    o.foreground = palette().color(QPalette::Text);
    o.font = font();
    return o;
}

QRectF BranchView::plotArea() const {
    if (!figure_) return QRectF(rect());
    return plot::branch_plot_rect(*figure_, QRectF(rect()), range_, paintOptions(), this);
}

QString BranchView::textAt(QPointF pixel) const {
    if (!figure_) return QString();
    const auto hit =
        plot::branch_point_near(plotArea(), range_, figure_->axes(), figure_->overlays(), pixel, hover_px);
    if (!hit) return QString();
    const auto& o = figure_->overlays()[hit->overlay];
    return plot::describe_point(o, o.points[hit->point]);
}

void BranchView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    if (!figure_) {
        p.fillRect(rect(), palette().color(QPalette::Base));
        return;
    }
    plot::paint_branch_figure(p, *figure_, QRectF(rect()), range_, paintOptions());
}

void BranchView::mouseMoveEvent(QMouseEvent* event) {
    const QString text = textAt(event->position());
    if (text.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    emit hovered(text);
    QToolTip::showText(event->globalPosition().toPoint() + QPoint(14, 18), text, this);
}

} // namespace bif::ui
