#include "ui/plot/branch_figure.h"

#include "ui/plot/branch_painter.h"
#include "ui/plot/figure_export.h"
#include "ui/plot/save_output.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace bif::plot {

namespace {

constexpr double gap = 6.0;
constexpr double sample_width = 28.0;

QStringList legend_lines(const BranchFigure& f) {
    QStringList lines;
    for (const auto& o : f.overlays())
        lines << o.name;
    return lines;
}

double legend_width(const BranchFigure& f, const QFontMetricsF& fm) {
    double w = 0.0;
    for (const QString& line : legend_lines(f) + QStringList{QObject::tr("unstable"), QObject::tr("stable")})
        w = std::max(w, sample_width + gap + fm.horizontalAdvance(line));
    return w;
}

void paint_legend(QPainter& p, const BranchFigure& f, const QRectF& key, const PaintOptions& options) {
    const QFontMetricsF fm(options.font, p.device());
    const double line = fm.height() + 4;
    double y = key.top();
    const auto entry = [&](const QString& text, const QPen& pen) {
        if (y + fm.height() > key.bottom()) return;
        p.setPen(pen);
        p.drawLine(QPointF(key.left(), y + fm.height() / 2),
                   QPointF(key.left() + sample_width, y + fm.height() / 2));
        p.setPen(options.foreground);
        p.drawText(QRectF(key.left() + sample_width + gap, y, key.width(), fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, text);
        y += line;
    };
    const auto& overlays = f.overlays();
    for (std::size_t i = 0; i < overlays.size(); ++i)
        entry(overlays[i].name, QPen(overlay_colour(i), 2.0));
    y += line / 2;
    entry(QObject::tr("stable"), QPen(options.foreground, 2.0));
    QPen dash(options.foreground, 2.0, Qt::CustomDashLine, Qt::FlatCap);
    dash.setDashPattern({3.0, 2.5});
    entry(QObject::tr("unstable"), dash);
}

} // namespace

BranchFigure::BranchFigure(QString title, std::shared_ptr<const Overlays> overlays)
    : title_(std::move(title)),
      overlays_(overlays ? std::move(overlays) : std::make_shared<const Overlays>()) {
    const auto& os = *overlays_;
    const auto branch =
        std::find_if(os.begin(), os.end(), [](const auto& o) { return o.kind != OverlayKind::Points; });
    if (branch != os.end()) {
        x_ = branch->parameter;
        if (std::any_of(os.begin(), os.end(), [](const auto& o) { return o.kind == OverlayKind::Branch; }))
            quantities_ = branch->states + QStringList{norm_quantity};
        for (const auto& o : os)
            if (o.kind == OverlayKind::Curve && !quantities_.contains(o.second_parameter))
                quantities_ << o.second_parameter;
    } else if (!os.empty() && !os.front().states.isEmpty()) {
        x_ = os.front().states.front();
        quantities_ = os.front().states.mid(1);
        if (quantities_.isEmpty()) quantities_ << norm_quantity;
    }
    // Two-parameter studies open on their curves: the picture they are made for.
    const bool curves =
        std::any_of(os.begin(), os.end(), [](const auto& o) { return o.kind == OverlayKind::Curve; });
    y_ = curves ? quantities_.value(quantities_.size() - 1) : quantities_.value(0);
}

bool BranchFigure::setQuantity(const QString& name) {
    if (!quantities_.contains(name)) return false;
    y_ = name;
    return true;
}

PlotRange BranchFigure::fullRange() const {
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (const auto& o : *overlays_)
        for (const auto& p : o.points)
            if (const auto d = overlay_position(o, p, axes());
                d && std::isfinite(d->x()) && std::isfinite(d->y())) {
                x0 = std::min(x0, d->x()), x1 = std::max(x1, d->x());
                y0 = std::min(y0, d->y()), y1 = std::max(y1, d->y());
            }
    if (!(x0 <= x1)) return {};
    const auto widen = [](double& a, double& b) {
        const double span = b - a > 0 ? b - a : std::max(1.0, std::abs(a));
        a -= span / 20, b += span / 20;
    };
    widen(x0, x1);
    widen(y0, y1);
    PlotRange r;
    r.x = {x0, x1, false};
    r.y = {y0, y1, false};
    return r;
}

QRectF branch_plot_rect(const BranchFigure& figure, const QRectF& target, const PlotRange& view,
                        const PaintOptions& options, const QPaintDevice* device) {
    const QFontMetricsF fm = device ? QFontMetricsF(options.font, device) : QFontMetricsF(options.font);
    return plot_rect_for(target, view, legend_width(figure, fm), options, device);
}

void paint_branch_figure(QPainter& p, const BranchFigure& figure, const QRectF& target, const PlotRange& view,
                         const PaintOptions& options) {
    const QRectF plot = branch_plot_rect(figure, target, view, options, p.device());
    p.save();
    p.fillRect(target, options.background);
    p.setFont(options.font);
    paint_branches(p, plot, view, figure.axes(), figure.overlays(), {options.font, options.background});
    if (options.stale) {
        p.setPen(options.foreground);
        p.drawText(plot, Qt::AlignCenter,
                   QObject::tr("cancelled: the branches end where the cancel found them"));
    }
    const QFontMetricsF fm(options.font, p.device());
    const double key_width = legend_width(figure, fm);
    paint_plot_axes(p, plot, key_width, view, figure.xName(), figure.quantity(), options);
    paint_legend(p, figure, QRectF(plot.right() + 2 * gap, plot.top(), key_width, plot.height()), options);
    paint_title(p, title_rect_for(target, options, p.device()), figure.title(), options);
    p.restore();
}

QImage render_branch_figure(const BranchFigure& figure, const PlotRange& view, QSize size,
                            const PaintOptions& options) {
    size = size.boundedTo(QSize(max_export_width, max_export_width)).expandedTo(QSize(64, 64));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(options.background);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    paint_branch_figure(painter, figure, QRectF(QPointF(0, 0), size), view, options);
    return image;
}

QString export_branch_png(const BranchFigure& figure, const PlotRange& view, QSize size, const QString& path,
                          const PaintOptions& options) {
    if (size.width() > max_export_width)
        return QObject::tr("PNG export is limited to %1 pixels wide").arg(max_export_width);
    return save_image(path, render_branch_figure(figure, view, size, options));
}

QString export_branch_svg(const BranchFigure& figure, const PlotRange& view, QSize size, const QString& path,
                          const PaintOptions& options) {
    return save_svg(path, size, figure.title(), [&](QPainter& painter) {
        paint_branch_figure(painter, figure, QRectF(QPointF(0, 0), size), view, options);
    });
}

} // namespace bif::plot
