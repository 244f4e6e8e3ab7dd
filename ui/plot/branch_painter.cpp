#include "ui/plot/branch_painter.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <array>
#include <cmath>

namespace bif::plot {

namespace {

constexpr double line_width = 2.0;
constexpr double ring_radius = 4.5;
constexpr double dot_radius = 4.0;

bool labelled(const OverlayPoint& p) {
    return !p.label.isEmpty() && p.label != QStringLiteral("EP");
}

QFont label_font(const QFont& base) {
    QFont f = base;
    f.setBold(true);
    return f;
}

// The runs of consecutive points of equal stability, as paths; a segment between a stable and an
// unstable point belongs to the unstable run (the change happens within it).
void paint_runs(QPainter& p, const QRectF& plot, const PlotRange& view, const OverlayAxes& axes,
                const BranchOverlay& o, const QColor& colour, const QColor& background) {
    QPainterPath solid, dashed;
    std::optional<QPointF> last;
    bool last_stable = true;
    for (const auto& point : o.points) {
        const auto data = overlay_position(o, point, axes);
        const auto pixel = data ? data_to_pixel(plot, view, *data) : std::nullopt;
        if (!pixel) {
            last.reset();
            continue;
        }
        if (last) {
            QPainterPath& path = point.stable && last_stable ? solid : dashed;
            if (path.currentPosition() != *last || path.elementCount() == 0) path.moveTo(*last);
            path.lineTo(*pixel);
        }
        last = pixel;
        last_stable = point.stable;
    }
    p.setBrush(Qt::NoBrush);
    // A halo of the background under the line keeps it readable over any picture's colours.
    QColor halo = background;
    halo.setAlpha(150);
    p.setPen(QPen(halo, line_width + 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPath(solid);
    p.drawPath(dashed);
    p.setPen(QPen(colour, line_width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPath(solid);
    QPen dash(colour, line_width, Qt::CustomDashLine, Qt::FlatCap, Qt::RoundJoin);
    dash.setDashPattern({3.0, 2.5}); // in line widths: 6 px dashes, 5 px gaps
    p.setPen(dash);
    p.drawPath(dashed);
}

void paint_dots(QPainter& p, const QRectF& plot, const PlotRange& view, const OverlayAxes& axes,
                const BranchOverlay& o, const QColor& colour, const QColor& background) {
    for (const auto& point : o.points) {
        const auto data = overlay_position(o, point, axes);
        const auto pixel = data ? data_to_pixel(plot, view, *data) : std::nullopt;
        if (!pixel) continue;
        p.setPen(QPen(colour, line_width));
        p.setBrush(point.stable ? colour : background);
        p.drawEllipse(*pixel, dot_radius, dot_radius);
    }
}

} // namespace

QColor overlay_colour(std::size_t index) {
    // Okabe and Ito's colour-blind safe set, less the colours of the density ramps (orange to black).
    static const std::array<QColor, 5> colours = {QColor(0x00, 0x9e, 0x73), QColor(0x00, 0x72, 0xb2),
                                                  QColor(0x56, 0xb4, 0xe9), QColor(0xcc, 0x79, 0xa7),
                                                  QColor(0xd5, 0x5e, 0x00)};
    return colours[index % colours.size()];
}

std::optional<QPointF> data_to_pixel(const QRectF& plot, const PlotRange& view, QPointF data) {
    if ((view.x.log && !(data.x() > 0)) || (view.y.log && !(data.y() > 0))) return std::nullopt;
    const double fx =
        (view.x.to_display(data.x()) - view.x.display_from()) / (view.x.display_to() - view.x.display_from());
    const double fy =
        (view.y.to_display(data.y()) - view.y.display_from()) / (view.y.display_to() - view.y.display_from());
    const QPointF pixel(plot.left() + fx * plot.width(), plot.bottom() - fy * plot.height());
    if (!std::isfinite(pixel.x()) || !std::isfinite(pixel.y())) return std::nullopt;
    // Far outside, a coordinate would overflow the paint engines' fixed point: the clip hides it anyway.
    const double limit = 1e6;
    return QPointF(std::clamp(pixel.x(), -limit, limit), std::clamp(pixel.y(), -limit, limit));
}

std::vector<PlacedLabel> place_branch_labels(const QRectF& plot, const PlotRange& view,
                                             const OverlayAxes& axes, const Overlays& overlays,
                                             const BranchStyle& style, const QPaintDevice* device) {
    const QFont font = label_font(style.font);
    const QFontMetricsF fm = device ? QFontMetricsF(font, device) : QFontMetricsF(font);
    std::vector<PlacedLabel> placed;
    std::vector<QRectF> rings;
    for (std::size_t i = 0; i < overlays.size(); ++i)
        for (const auto& point : overlays[i].points)
            if (labelled(point))
                if (const auto d = overlay_position(overlays[i], point, axes))
                    if (const auto px = data_to_pixel(plot, view, *d); px && plot.contains(*px))
                        rings.push_back(
                            QRectF(*px - QPointF(ring_radius, ring_radius), QSizeF(2, 2) * ring_radius));
    for (std::size_t i = 0; i < overlays.size(); ++i) {
        const BranchOverlay& o = overlays[i];
        for (std::size_t j = 0; j < o.points.size(); ++j) {
            if (!labelled(o.points[j])) continue;
            const auto d = overlay_position(o, o.points[j], axes);
            const auto anchor = d ? data_to_pixel(plot, view, *d) : std::nullopt;
            if (!anchor || !plot.contains(*anchor)) continue;
            // Branches that overlap (one continued from each of its equilibria) share their special
            // points: each is labelled once.
            const auto same = [&](const PlacedLabel& l) {
                return l.text == o.points[j].label && QLineF(l.anchor, *anchor).length() < 3.0;
            };
            if (std::any_of(placed.begin(), placed.end(), same)) continue;
            const QSizeF size(fm.horizontalAdvance(o.points[j].label) + 4, fm.height());
            // Beside the ring: above right first, then the other corners, then further out.
            const double r = ring_radius + 2;
            std::vector<QPointF> corners;
            for (double reach : {1.0, 2.2, 3.6})
                for (QPointF dir : {QPointF(1, -1), QPointF(-1, -1), QPointF(1, 1), QPointF(-1, 1)})
                    corners.push_back(
                        *anchor + QPointF(dir.x() * r, dir.y() * r * reach) +
                        QPointF(dir.x() < 0 ? -size.width() : 0, dir.y() < 0 ? -size.height() : 0));
            double best_cost = 1e300;
            QRectF best;
            for (std::size_t c = 0; c < corners.size(); ++c) {
                QRectF box(corners[c], size);
                double cost = double(c); // earlier candidates are nearer and preferred
                if (!plot.contains(box)) cost += 1e4;
                for (const auto& other : placed)
                    if (other.box.intersects(box)) cost += 1e5;
                for (const auto& ring : rings)
                    if (ring.intersects(box)) cost += 1e3;
                if (cost < best_cost) best_cost = cost, best = box;
            }
            // Never beyond the plot's edge: pushed in, even if it then overlaps.
            best.moveLeft(
                std::clamp(best.left(), plot.left(), std::max(plot.left(), plot.right() - best.width())));
            best.moveTop(
                std::clamp(best.top(), plot.top(), std::max(plot.top(), plot.bottom() - best.height())));
            placed.push_back({o.points[j].label, *anchor, best, i, j});
        }
    }
    return placed;
}

void paint_branches(QPainter& p, const QRectF& plot, const PlotRange& view, const OverlayAxes& axes,
                    const Overlays& overlays, const BranchStyle& style) {
    p.save();
    p.setClipRect(plot);
    p.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t i = 0; i < overlays.size(); ++i) {
        if (overlays[i].kind == OverlayKind::Points)
            paint_dots(p, plot, view, axes, overlays[i], overlay_colour(i), style.background);
        else
            paint_runs(p, plot, view, axes, overlays[i], overlay_colour(i), style.background);
    }
    const auto labels = place_branch_labels(plot, view, axes, overlays, style, p.device());
    p.setFont(label_font(style.font));
    for (const auto& l : labels) {
        const QColor colour = overlay_colour(l.overlay);
        p.setPen(QPen(colour, line_width));
        p.setBrush(style.background);
        p.drawEllipse(l.anchor, ring_radius, ring_radius);
        QColor halo = style.background;
        halo.setAlpha(200);
        p.fillRect(l.box, halo);
        p.setPen(colour.darker(130));
        p.drawText(l.box, Qt::AlignCenter, l.text);
    }
    p.restore();
}

std::optional<BranchHit> branch_point_near(const QRectF& plot, const PlotRange& view, const OverlayAxes& axes,
                                           const Overlays& overlays, QPointF pixel, double radius) {
    std::optional<BranchHit> best;
    for (std::size_t i = 0; i < overlays.size(); ++i)
        for (std::size_t j = 0; j < overlays[i].points.size(); ++j) {
            const auto d = overlay_position(overlays[i], overlays[i].points[j], axes);
            const auto px = d ? data_to_pixel(plot, view, *d) : std::nullopt;
            if (!px) continue;
            const double distance = std::hypot(px->x() - pixel.x(), px->y() - pixel.y());
            // A special point wins over a regular one as near (it is what a user points at).
            const double rank = distance - (overlays[i].points[j].label.isEmpty() ? 0.0 : 2.0);
            if (distance <= radius && (!best || rank < best->distance)) best = BranchHit{i, j, rank};
        }
    if (best) {
        const auto d =
            overlay_position(overlays[best->overlay], overlays[best->overlay].points[best->point], axes);
        const auto px = data_to_pixel(plot, view, *d);
        best->distance = std::hypot(px->x() - pixel.x(), px->y() - pixel.y());
    }
    return best;
}

} // namespace bif::plot
