#include "ui/plot/phase_plane_figure.h"

#include "engine/analysis/phase_plane_csv.h"
#include "ui/plot/axis_ticks.h"
#include "ui/plot/save_output.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <sstream>

namespace bif::plot {

namespace {

constexpr double gap = 6.0;
constexpr double tick_length = 5.0;
const QColor foreground(0x20, 0x20, 0x20);
const QColor arrow_colour(0xa0, 0xa0, 0xa0);
const QColor trajectory_colour(0x10, 0x10, 0x10);

QFontMetricsF metrics(const QFont& font, const QPaintDevice* device) {
    return device ? QFontMetricsF(font, device) : QFontMetricsF(font);
}

// Ticks whose labels fit `length` pixels: about one per 80 px along x, one per three lines along y.
std::vector<Tick> ticks_for(double from, double to, double length, double spacing) {
    return linear_ticks(from, to, std::max(2, static_cast<int>(length / spacing)));
}

double widest(const std::vector<Tick>& ticks, const QFontMetricsF& fm) {
    double w = 0.0;
    for (const auto& t : ticks)
        w = std::max(w, fm.horizontalAdvance(t.label));
    return w;
}

QFont title_font(QFont f) {
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    return f;
}

} // namespace

PhasePlaneFigure::PhasePlaneFigure(const PhasePlaneScene& scene, QFont font)
    : scene_(scene), font_(std::move(font)) {}

QRectF PhasePlaneFigure::plotRect(const QRectF& target, const QPaintDevice* device) const {
    const QFontMetricsF fm = metrics(font_, device), tfm = metrics(title_font(font_), device);
    // title, legend line, plot, tick labels, axis label
    const double top = target.top() + gap + tfm.height() + gap + fm.height() + gap;
    const double bottom = target.bottom() - gap - fm.height() - gap - fm.height() - tick_length;
    const auto& w = scene_.portrait ? scene_.portrait->window : scene_.window;
    const double labels = widest(ticks_for(w.y_from, w.y_to, bottom - top, 3 * fm.height()), fm);
    const double left = target.left() + gap + fm.height() + gap + labels + tick_length + 2;
    // the last x tick label is centred on the right edge: leave room for its half
    const auto x_ticks = ticks_for(w.x_from, w.x_to, target.width() - left, 80);
    const double half_label = x_ticks.empty() ? 0.0 : fm.horizontalAdvance(x_ticks.back().label) / 2;
    const double right = target.right() - gap - std::max(half_label, gap);
    return QRectF(QPointF(left, top), QPointF(std::max(left + 10, right), std::max(top + 10, bottom)));
}

QPointF PhasePlaneFigure::toPixel(const QRectF& plot, analysis::PlanePoint q) const {
    const auto& w = scene_.portrait ? scene_.portrait->window : scene_.window;
    return {plot.left() + (q.x - w.x_from) / (w.x_to - w.x_from) * plot.width(),
            plot.bottom() - (q.y - w.y_from) / (w.y_to - w.y_from) * plot.height()};
}

analysis::PlanePoint PhasePlaneFigure::toPlane(const QRectF& plot, QPointF pixel) const {
    const auto& w = scene_.portrait ? scene_.portrait->window : scene_.window;
    return {w.x_from + (pixel.x() - plot.left()) / plot.width() * (w.x_to - w.x_from),
            w.y_from + (plot.bottom() - pixel.y()) / plot.height() * (w.y_to - w.y_from)};
}

std::optional<analysis::Equilibrium> PhasePlaneFigure::equilibriumNear(const QRectF& plot, QPointF pixel,
                                                                       double radius) const {
    if (!scene_.portrait) return std::nullopt;
    for (const auto& e : scene_.portrait->equilibria) {
        const QPointF d = toPixel(plot, e.at) - pixel;
        if (std::hypot(d.x(), d.y()) <= radius) return e;
    }
    return std::nullopt;
}

void PhasePlaneFigure::paint(QPainter& p, const QRectF& target) const {
    const QRectF plot = plotRect(target, p.device());
    p.save();
    p.fillRect(target, Qt::white);
    p.setFont(font_);
    const QFontMetricsF fm = metrics(font_, p.device());
    const QFont tf = title_font(font_);
    p.setFont(tf);
    p.setPen(foreground);
    const QRectF title(target.left() + gap, target.top() + gap, target.width() - 2 * gap,
                       metrics(tf, p.device()).height());
    p.drawText(title, Qt::AlignHCenter | Qt::AlignVCenter,
               metrics(tf, p.device()).elidedText(scene_.title, Qt::ElideRight, title.width()));
    p.setFont(font_);
    paintLegend(p, QRectF(plot.left(), title.bottom() + gap, plot.width(), fm.height()));
    p.save();
    p.setClipRect(plot);
    p.setRenderHint(QPainter::Antialiasing, true);
    paintField(p, plot);
    paintCurves(p, plot);
    paintEquilibria(p, plot);
    p.restore();
    paintAxes(p, plot);
    if (!scene_.portrait) {
        p.setPen(Qt::gray);
        p.drawText(plot, Qt::AlignCenter, QStringLiteral("computing…"));
    }
    p.restore();
}

void PhasePlaneFigure::paintAxes(QPainter& p, const QRectF& plot) const {
    const QFontMetricsF fm = metrics(font_, p.device());
    const auto& w = scene_.portrait ? scene_.portrait->window : scene_.window;
    p.setPen(QPen(foreground, 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
    for (const Tick& t : ticks_for(w.x_from, w.x_to, plot.width(), 80)) {
        const double x = toPixel(plot, {t.value, w.y_from}).x();
        p.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + tick_length));
        const double half = fm.horizontalAdvance(t.label) / 2;
        p.drawText(QRectF(x - half - 2, plot.bottom() + tick_length, 2 * half + 4, fm.height()),
                   Qt::AlignCenter, t.label);
    }
    for (const Tick& t : ticks_for(w.y_from, w.y_to, plot.height(), 3 * fm.height())) {
        const double y = toPixel(plot, {w.x_from, t.value}).y();
        p.drawLine(QPointF(plot.left() - tick_length, y), QPointF(plot.left(), y));
        const double width = fm.horizontalAdvance(t.label);
        p.drawText(
            QRectF(plot.left() - tick_length - 2 - width - 2, y - fm.height() / 2, width + 2, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, t.label);
    }
    const QRectF x_label(plot.left(), plot.bottom() + tick_length + fm.height() + gap / 2, plot.width(),
                         fm.height());
    p.drawText(x_label, Qt::AlignHCenter | Qt::AlignVCenter, scene_.x_name);
    p.save();
    p.translate(plot.left() - tick_length - 2 -
                    widest(ticks_for(w.y_from, w.y_to, plot.height(), 3 * fm.height()), fm) - gap -
                    fm.height() / 2,
                plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -fm.height() / 2, plot.height(), fm.height()), Qt::AlignCenter,
               scene_.y_name);
    p.restore();
}

void PhasePlaneFigure::paintField(QPainter& p, const QRectF& plot) const {
    if (!scene_.portrait || scene_.portrait->arrows.empty()) return;
    const auto& arrows = scene_.portrait->arrows;
    const double per_row = std::round(std::sqrt(static_cast<double>(arrows.size())));
    const double length = 0.7 * std::min(plot.width(), plot.height()) / std::max(per_row, 1.0);
    const double head = std::clamp(length * 0.3, 2.0, 6.0);
    p.setPen(QPen(arrow_colour, 1));
    p.setBrush(arrow_colour);
    for (const auto& a : arrows) {
        if (a.speed == 0.0) continue;
        // screen direction: y grows downward, and the axes may have different scales
        const QPointF centre = toPixel(plot, a.at);
        const QPointF ahead = toPixel(
            plot, {a.at.x + a.dx * 1e-3 * (scene_.portrait->window.x_to - scene_.portrait->window.x_from),
                   a.at.y + a.dy * 1e-3 * (scene_.portrait->window.y_to - scene_.portrait->window.y_from)});
        QPointF d = ahead - centre;
        const double n = std::hypot(d.x(), d.y());
        if (n == 0.0) continue;
        d /= n;
        const QPointF tail = centre - d * (length / 2), tip = centre + d * (length / 2);
        p.drawLine(tail, tip);
        const QPointF side(-d.y(), d.x());
        const QPointF head_points[3] = {tip, tip - d * head + side * (head / 2),
                                        tip - d * head - side * (head / 2)};
        p.drawPolygon(head_points, 3);
    }
}

void PhasePlaneFigure::paintCurves(QPainter& p, const QRectF& plot) const {
    p.setBrush(Qt::NoBrush);
    if (scene_.portrait) {
        const QColor colours[2] = {x_nullcline_colour, y_nullcline_colour};
        for (int k = 0; k < 2; ++k) {
            p.setPen(QPen(colours[k], 2));
            for (const auto& line : scene_.portrait->nullclines[k]) {
                QPainterPath path(toPixel(plot, line.front()));
                for (std::size_t i = 1; i < line.size(); ++i)
                    path.lineTo(toPixel(plot, line[i]));
                p.drawPath(path);
            }
        }
    }
    for (const auto& t : scene_.trajectories) {
        if (t.points.empty()) continue;
        p.setPen(QPen(trajectory_colour, 1.4));
        QPainterPath path(toPixel(plot, t.points.front()));
        for (std::size_t i = 1; i < t.points.size(); ++i)
            path.lineTo(toPixel(plot, t.points[i]));
        p.drawPath(path);
        p.setBrush(trajectory_colour);
        p.drawEllipse(toPixel(plot, t.start), 2.5, 2.5);
        p.setBrush(Qt::NoBrush);
    }
}

void paint_equilibrium_marker(QPainter& p, QPointF c, analysis::EquilibriumType type, double r) {
    using analysis::EquilibriumType;
    p.setPen(QPen(foreground, 1.5));
    p.setBrush(Qt::white);
    switch (type) {
    case EquilibriumType::StableNode:
    case EquilibriumType::StableFocus:
        p.setBrush(foreground);
        p.drawEllipse(c, r, r);
        break;
    case EquilibriumType::UnstableNode:
    case EquilibriumType::UnstableFocus:
        p.drawEllipse(c, r, r);
        break;
    case EquilibriumType::Saddle:
        p.drawRect(QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r));
        p.drawLine(c + QPointF(-r, -r), c + QPointF(r, r));
        p.drawLine(c + QPointF(-r, r), c + QPointF(r, -r));
        break;
    case EquilibriumType::Centre:
        p.drawEllipse(c, r, r);
        p.setBrush(foreground);
        p.drawEllipse(c, r / 3, r / 3);
        break;
    case EquilibriumType::Degenerate: {
        const QPointF tri[3] = {c + QPointF(0, -r), c + QPointF(r, r * 0.8), c + QPointF(-r, r * 0.8)};
        p.drawPolygon(tri, 3);
        break;
    }
    }
    p.setBrush(Qt::NoBrush);
}

void PhasePlaneFigure::paintEquilibria(QPainter& p, const QRectF& plot) const {
    if (!scene_.portrait) return;
    for (const auto& e : scene_.portrait->equilibria)
        paint_equilibrium_marker(p, toPixel(plot, e.at), e.type, 5);
}

// One line: the two nullclines' colours, then the markers that appear in the picture.
void PhasePlaneFigure::paintLegend(QPainter& p, const QRectF& area) const {
    const QFontMetricsF fm = metrics(font_, p.device());
    double x = area.left();
    const double y = area.center().y();
    auto text = [&](const QString& s) {
        p.setPen(foreground);
        p.drawText(QPointF(x, y + fm.ascent() / 2 - 1), s);
        x += fm.horizontalAdvance(s) + 2 * gap;
    };
    const QColor colours[2] = {x_nullcline_colour, y_nullcline_colour};
    const QString names[2] = {scene_.x_name, scene_.y_name};
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    for (int k = 0; k < 2; ++k) {
        p.setPen(QPen(colours[k], 2));
        p.drawLine(QPointF(x, y), QPointF(x + 18, y));
        x += 18 + gap / 2;
        text(names[k] + QStringLiteral("' = 0"));
    }
    if (scene_.portrait) {
        std::vector<analysis::EquilibriumType> seen;
        for (const auto& e : scene_.portrait->equilibria)
            if (std::find(seen.begin(), seen.end(), e.type) == seen.end()) seen.push_back(e.type);
        std::sort(seen.begin(), seen.end());
        for (auto type : seen) {
            if (x + 20 + fm.horizontalAdvance(QString::fromUtf8(analysis::name_of(type))) > area.right())
                break;
            paint_equilibrium_marker(p, QPointF(x + 5, y), type, 4.5);
            x += 10 + gap / 2;
            text(QString::fromUtf8(analysis::name_of(type)));
        }
    }
    p.restore();
}

QImage render_phase_plane(const PhasePlaneScene& scene, QSize size) {
    QImage image(size.expandedTo(QSize(64, 64)), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    PhasePlaneFigure(scene).paint(painter, QRectF(QPointF(0, 0), image.size()));
    return image;
}

QString export_phase_plane_png(const PhasePlaneScene& scene, QSize size, const QString& path) {
    return save_image(path, render_phase_plane(scene, size));
}

QString export_phase_plane_svg(const PhasePlaneScene& scene, QSize size, const QString& path) {
    return save_svg(path, size, scene.title, [&](QPainter& painter) {
        PhasePlaneFigure(scene).paint(painter, QRectF(QPointF(0, 0), size));
    });
}

QString export_phase_plane_csv(const PhasePlaneScene& scene, const QString& path) {
    std::ostringstream out;
    static const analysis::PhasePortrait empty;
    analysis::write_phase_plane_csv(out, scene.x_name.toStdString(), scene.y_name.toStdString(),
                                    scene.portrait ? *scene.portrait : empty, scene.trajectories);
    return save_output(path, QByteArray::fromStdString(out.str()));
}

} // namespace bif::plot
