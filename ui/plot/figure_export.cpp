#include "ui/plot/figure_export.h"

#include "ui/plot/save_output.h"

#include <QPainter>

namespace bif::plot {

namespace {

// The figure's image at the resolution of its plot area in this output (a density diagram is
// rebinned for it, so an 8192-pixel export is as sharp as its data).
void prepare(ResultFigure& figure, const PlotRange& view, QSize size, const PaintOptions& options,
             const QPaintDevice* device) {
    const FigureLayout l = FigurePainter(figure, options).layout(QRectF(QPointF(0, 0), size), view, device);
    figure.setViewport(view, l.plot.size().toSize());
    figure.refresh();
}

} // namespace

QImage render_figure(ResultFigure& figure, const PlotRange& view, QSize size, const PaintOptions& options) {
    size = size.boundedTo(QSize(max_export_width, max_export_width)).expandedTo(QSize(64, 64));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    prepare(figure, view, size, options, &image);
    image.fill(options.background);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    FigurePainter(figure, options).paint(painter, QRectF(QPointF(0, 0), size), view);
    return image;
}

QString export_png(ResultFigure& figure, const PlotRange& view, QSize size, const QString& path,
                   const PaintOptions& options) {
    if (size.width() > max_export_width)
        return QStringLiteral("PNG export is limited to %1 pixels wide").arg(max_export_width);
    const QImage image = render_figure(figure, view, size, options);
    return save_image(path, image);
}

QString export_svg(ResultFigure& figure, const PlotRange& view, QSize size, const QString& path,
                   const PaintOptions& options) {
    return save_svg(path, size, figure.title(), [&](QPainter& painter) {
        prepare(figure, view, size, options, painter.device());
        FigurePainter(figure, options).paint(painter, QRectF(QPointF(0, 0), size), view);
    });
}

} // namespace bif::plot
