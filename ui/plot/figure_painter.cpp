#include "ui/plot/figure_painter.h"

#include "ui/plot/axis_ticks.h"
#include "ui/plot/branch_painter.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace bif::plot {

namespace {

constexpr double tick_length = 5.0;
constexpr double gap = 6.0;
constexpr double ramp_width = 16.0;

// The title and the axes' names stand out from the tick labels: larger, the title bold.
QFont scaled_font(const QFont& base, double factor, bool bold) {
    QFont f = base;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor);
    else
        f.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * factor))));
    f.setBold(bold);
    return f;
}

QFont title_font_of(const QFont& base) {
    return scaled_font(base, 1.3, true);
}

QFont axis_name_font_of(const QFont& base) {
    return scaled_font(base, 1.15, false);
}

QFontMetricsF metrics(const QFont& font, const QPaintDevice* device) {
    return device ? QFontMetricsF(font, device) : QFontMetricsF(font);
}

// Ticks of one axis whose labels fit `length` pixels side by side (x) or stacked (y) without touching.
std::vector<Tick> fitted_ticks(const AxisRange& axis, double length, const QFontMetricsF& fm,
                               bool horizontal) {
    for (int wanted = std::max(2, static_cast<int>(length / (horizontal ? 70.0 : 3.0 * fm.height())));
         wanted >= 1; --wanted) {
        auto ticks =
            axis.log ? log_ticks(axis.from, axis.to, wanted) : linear_ticks(axis.from, axis.to, wanted);
        if (ticks.size() < 2) return ticks;
        double widest = 0.0;
        for (const auto& t : ticks)
            widest = std::max(widest, horizontal ? fm.horizontalAdvance(t.label) : fm.height());
        const double spacing = length / std::abs(axis.display_to() - axis.display_from()) *
                               std::abs(axis.to_display(ticks[1].value) - axis.to_display(ticks[0].value));
        if (spacing >= widest * 1.3 + 4.0 || wanted == 1) return ticks;
    }
    return {};
}

double widest_label(const std::vector<Tick>& ticks, const QFontMetricsF& fm) {
    double w = 0.0;
    for (const auto& t : ticks)
        w = std::max(w, fm.horizontalAdvance(t.label));
    return w;
}

// How many of `count` legend entries to draw in `height`: all, or what fits less one line for the rest.
std::size_t legend_shown(std::size_t count, double height, const QFontMetricsF& fm) {
    const auto fit = static_cast<std::size_t>(std::max(0.0, std::floor((height + 2) / (fm.height() + 2))));
    return fit >= count ? count : fit > 0 ? fit - 1 : 0;
}

std::vector<Tick> key_ticks(const ColorKey& key, double length, const QFontMetricsF& fm) {
    return fitted_ticks(AxisRange{key.from, key.to, key.log}, length, fm, false);
}

} // namespace

FigurePainter::FigurePainter(const ResultFigure& figure, PaintOptions options)
    : figure_(figure), options_(std::move(options)) {}

QPointF FigurePainter::toPixel(const QRectF& plot, const PlotRange& view, double x, double y) {
    const double fx =
        (view.x.to_display(x) - view.x.display_from()) / (view.x.display_to() - view.x.display_from());
    const double fy =
        (view.y.to_display(y) - view.y.display_from()) / (view.y.display_to() - view.y.display_from());
    return {plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height()};
}

QPointF FigurePainter::toData(const QRectF& plot, const PlotRange& view, QPointF pixel) {
    const double fx = (pixel.x() - plot.left()) / plot.width();
    const double fy = (plot.bottom() - pixel.y()) / plot.height();
    return {view.x.from_display(view.x.display_from() + fx * (view.x.display_to() - view.x.display_from())),
            view.y.from_display(view.y.display_from() + fy * (view.y.display_to() - view.y.display_from()))};
}

FigureLayout FigurePainter::layout(const QRectF& target, const PlotRange& view,
                                   const QPaintDevice* device) const {
    const QFontMetricsF fm = metrics(options_.font, device);
    // The key's width depends on its labels; the y labels' on the ticks that fit the height.
    const ColorKey key = figure_.colorKey();
    const double height = plot_height_for(target, options_, device);
    double key_width = 0.0;
    if (key.categorical) {
        for (const auto& e : key.entries)
            key_width = std::max(key_width, fm.height() + gap + fm.horizontalAdvance(e.label));
        key_width = std::max(key_width, fm.horizontalAdvance(key.label));
        const std::size_t shown = legend_shown(key.entries.size(), height - fm.height() - 4, fm);
        key_width = std::max(key_width, fm.horizontalAdvance(legend_overflow(key, shown)));
    } else {
        key_width =
            ramp_width + tick_length + 2 + widest_label(key_ticks(key, height, fm), fm) + gap + fm.height();
    }
    if (!key.categorical) {
        for (const auto& e : key.entries) // a "failed" swatch below the ramp
            key_width = std::max(key_width, fm.height() + gap + fm.horizontalAdvance(e.label));
    }
    FigureLayout l;
    l.title = title_rect_for(target, options_, device);
    l.plot = plot_rect_for(target, view, key_width, options_, device);
    l.key = QRectF(l.plot.right() + 2 * gap, l.plot.top(), key_width, l.plot.height());
    return l;
}

QRectF title_rect_for(const QRectF& target, const PaintOptions& options, const QPaintDevice* device) {
    const QFontMetricsF tfm = metrics(title_font_of(options.font), device);
    return QRectF(target.left() + gap, target.top() + gap, target.width() - 2 * gap, tfm.height());
}

double plot_height_for(const QRectF& target, const PaintOptions& options, const QPaintDevice* device) {
    const QFontMetricsF fm = metrics(options.font, device);
    const QFontMetricsF nfm = metrics(axis_name_font_of(options.font), device);
    const double top = title_rect_for(target, options, device).bottom() + gap + fm.height() / 2;
    const double bottom = target.bottom() - gap - fm.height() - nfm.height() - tick_length - gap;
    return bottom - top;
}

QRectF plot_rect_for(const QRectF& target, const PlotRange& view, double key_width,
                     const PaintOptions& options, const QPaintDevice* device) {
    const QFontMetricsF fm = metrics(options.font, device);
    const QFontMetricsF nfm = metrics(axis_name_font_of(options.font), device);
    const double top = title_rect_for(target, options, device).bottom() + gap + fm.height() / 2;
    const double bottom = top + plot_height_for(target, options, device);
    const double y_labels = widest_label(fitted_ticks(view.y, bottom - top, fm, false), fm);
    const double left = target.left() + gap + nfm.height() + gap + y_labels + tick_length + 2;
    const double right = target.right() - gap - (key_width > 0 ? key_width + 2 * gap : gap);
    return QRectF(QPointF(left, top), QPointF(std::max(left + 10, right), std::max(top + 10, bottom)));
}

void paint_title(QPainter& p, const QRectF& rect, const QString& text, const PaintOptions& options) {
    const QFont title_font = title_font_of(options.font);
    p.save();
    p.setFont(title_font);
    p.setPen(options.foreground);
    const QString title =
        QFontMetricsF(title_font, p.device()).elidedText(text, Qt::ElideRight, rect.width());
    p.drawText(rect, Qt::AlignHCenter | Qt::AlignVCenter, title);
    p.restore();
}

void FigurePainter::paint(QPainter& p, const QRectF& target, const PlotRange& view) const {
    const FigureLayout l = layout(target, view, p.device());
    p.save();
    p.fillRect(target, options_.background);
    p.setFont(options_.font);
    paintImage(p, l.plot, view);
    if (options_.stale) {
        QColor veil = options_.background;
        veil.setAlpha(170);
        p.fillRect(l.plot, veil);
        p.setPen(options_.foreground);
        p.drawText(l.plot, Qt::AlignCenter, QStringLiteral("outdated"));
    }
    if (options_.branches && !options_.branches->empty())
        paint_branches(p, l.plot, view, {figure_.xLabel(), figure_.yLabel()}, *options_.branches,
                       {options_.font, options_.background});
    paintAxes(p, l, view);
    paintKey(p, l.key);
    paint_title(p, l.title, figure_.title(), options_);
    p.restore();
}

void FigurePainter::paintImage(QPainter& p, const QRectF& plot, const PlotRange& view) const {
    if (!options_.backdrop.isNull()) paintImageAt(p, plot, view, options_.backdrop, options_.backdrop_range);
    paintImageAt(p, plot, view, figure_.image(), figure_.imageRange());
}

void FigurePainter::paintImageAt(QPainter& p, const QRectF& plot, const PlotRange& view, const QImage& image,
                                 const PlotRange& ir) {
    if (image.isNull()) return;
    // A picture binned for other axis scales (the view has just turned logarithmic or back) waits for
    // the figure's next pass: drawn, it would be misplaced, and a linear picture's corner below 0 has
    // no place on a log axis at all (NaN, which crashed QPainter's raster engine under load).
    if (!ir.same_scales(view)) return;
    // The image's corners in the view; draw only its visible part, without smoothing (crisp cells).
    const QPointF a = toPixel(plot, view, ir.x.from, ir.y.to);
    const QPointF b = toPixel(plot, view, ir.x.to, ir.y.from);
    // never a NaN or infinite rectangle to QPainter
    if (!std::isfinite(a.x()) || !std::isfinite(a.y()) || !std::isfinite(b.x()) || !std::isfinite(b.y()))
        return;
    const QRectF whole = QRectF(a, b).normalized();
    const QRectF visible = whole.intersected(plot);
    if (visible.isEmpty()) return;
    const double sx = image.width() / whole.width(), sy = image.height() / whole.height();
    const QRectF source((visible.left() - whole.left()) * sx, (visible.top() - whole.top()) * sy,
                        visible.width() * sx, visible.height() * sy);
    p.save();
    p.setClipRect(plot);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(visible, image, source);
    p.restore();
}

void paint_plot_axes(QPainter& p, const QRectF& plot, double right_room, const PlotRange& view,
                     const QString& x_name, const QString& y_name, const PaintOptions& options) {
    const QFontMetricsF fm(options.font, p.device());
    p.setPen(QPen(options.foreground, 1.0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
    const auto xticks = fitted_ticks(view.x, plot.width(), fm, true);
    for (const auto& t : xticks) {
        const double x = FigurePainter::toPixel(plot, view, t.value, view.y.from).x();
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + tick_length));
        const double w = fm.horizontalAdvance(t.label);
        // Keep the end labels inside the figure rather than centred over the corner.
        const double left = std::clamp(x - w / 2, plot.left() - w / 2, plot.right() + right_room - w);
        p.drawText(QRectF(left, plot.bottom() + tick_length + 1, w + 1, fm.height()), Qt::AlignCenter,
                   t.label);
    }
    const auto yticks = fitted_ticks(view.y, plot.height(), fm, false);
    for (const auto& t : yticks) {
        const double y = FigurePainter::toPixel(plot, view, view.x.from, t.value).y();
        p.drawLine(QPointF(plot.left() - tick_length, y), QPointF(plot.left(), y));
        const double w = fm.horizontalAdvance(t.label);
        p.drawText(QRectF(plot.left() - tick_length - 2 - w - 1, y - fm.height() / 2, w + 1, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, t.label);
    }
    const QFont name_font = axis_name_font_of(options.font);
    const QFontMetricsF nfm(name_font, p.device());
    p.save();
    p.setFont(name_font);
    const QString xlabel = x_name + (view.x.log ? QStringLiteral(" (log)") : QString());
    p.drawText(QRectF(plot.left(), plot.bottom() + tick_length + fm.height() + 2, plot.width(), nfm.height()),
               Qt::AlignCenter, xlabel);
    const QString ylabel = y_name + (view.y.log ? QStringLiteral(" (log)") : QString());
    p.translate(plot.left() - tick_length - 4 - widest_label(yticks, fm) - gap - nfm.height() / 2,
                plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -nfm.height() / 2, plot.height(), nfm.height()), Qt::AlignCenter,
               ylabel);
    p.restore();
}

void FigurePainter::paintAxes(QPainter& p, const FigureLayout& l, const PlotRange& view) const {
    paint_plot_axes(p, l.plot, l.key.width(), view, figure_.xLabel(), figure_.yLabel(), options_);
}

void FigurePainter::paintKey(QPainter& p, const QRectF& key) const {
    const ColorKey k = figure_.colorKey();
    const QFontMetricsF fm(options_.font, p.device());
    p.setPen(options_.foreground);
    const auto swatches = [&](double top) {
        // What fits; when not all, the last line says what is left out.
        const double line = fm.height() + 2;
        const std::size_t shown = legend_shown(k.entries.size(), key.bottom() - top, fm);
        for (std::size_t i = 0; i < shown; ++i, top += line) {
            const QRectF box(key.left(), top + 2, fm.height() - 4, fm.height() - 4);
            p.fillRect(box, QColor::fromRgba(k.entries[i].color));
            p.drawRect(box);
            p.drawText(QRectF(key.left() + fm.height() + 2, top, key.width(), fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, k.entries[i].label);
        }
        if (shown < k.entries.size() && key.bottom() - top >= fm.height())
            p.drawText(QRectF(key.left(), top, key.width() + gap, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, legend_overflow(k, shown));
    };
    if (k.categorical) {
        p.drawText(QRectF(key.left(), key.top(), key.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(k.label, Qt::ElideRight, key.width()));
        swatches(key.top() + fm.height() + 4);
        return;
    }
    if (k.ramp.empty()) return;
    // Leave room below the ramp for the "failed" swatch.
    const double ramp_height = key.height() - (k.entries.empty() ? 0.0 : fm.height() + 8);
    const QRectF bar(key.left(), key.top(), ramp_width, ramp_height);
    QImage ramp(1, static_cast<int>(k.ramp.size()), QImage::Format_ARGB32);
    for (std::size_t i = 0; i < k.ramp.size(); ++i)
        ramp.setPixel(0, static_cast<int>(k.ramp.size() - 1 - i), k.ramp[i]);
    p.drawImage(bar, ramp);
    p.drawRect(bar);
    const auto ticks = key_ticks(k, bar.height(), fm);
    const AxisRange axis{k.from, k.to, k.log};
    for (const auto& t : ticks) {
        const double f =
            (axis.to_display(t.value) - axis.display_from()) / (axis.display_to() - axis.display_from());
        const double y = bar.bottom() - f * bar.height();
        p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + tick_length, y));
        p.drawText(QRectF(bar.right() + tick_length + 2, y - fm.height() / 2, key.width(), fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, t.label);
    }
    p.save();
    p.translate(key.right() - fm.height() / 2, bar.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-bar.height() / 2, -fm.height() / 2, bar.height(), fm.height()), Qt::AlignCenter,
               k.label);
    p.restore();
    swatches(bar.bottom() + 8);
}

} // namespace bif::plot
