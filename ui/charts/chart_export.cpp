#include "ui/charts/chart_export.h"

#include "ui/plot/save_output.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QPainter>

namespace bif::ui {

namespace {

// Lays the chart out at `size`, paints it with `paint_into`, then restores the view's own size.
template <class Paint>
void with_chart_at(QChartView& view, QSize size, Paint paint_into) {
    const QSizeF old_size = view.chart()->size();
    view.chart()->resize(size);
    if (auto* layout = view.chart()->layout()) layout->activate();
    paint_into(QRectF(QPointF(0, 0), QSizeF(size)));
    view.chart()->resize(old_size);
    if (auto* layout = view.chart()->layout()) layout->activate();
}

} // namespace

QImage render_chart_image(QChartView& view, QSize size) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    with_chart_at(view, size, [&](const QRectF& target) {
        view.scene()->render(&painter, target, view.chart()->mapRectToScene(QRectF(target)));
    });
    return image;
}

bool write_chart_svg(QChartView& view, const QString& path, QSize size, const QString& title) {
    return plot::save_svg(path, size, title,
                          [&](QPainter& painter) {
                              with_chart_at(view, size, [&](const QRectF& target) {
                                  view.scene()->render(&painter, target,
                                                       view.chart()->mapRectToScene(QRectF(target)));
                              });
                          })
        .isEmpty();
}

} // namespace bif::ui
