// What ResultFigure says about a point of its picture: the system under it and its hover text, and
// the legend's overflow line.
#include "ui/plot/result_figure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bif::plot {

QString figure_number(double v) {
    return QString::number(v, 'g', 4);
}

std::optional<std::size_t> ResultFigure::nearestGridIndex(std::size_t axis, double value) const {
    if (axis >= study_->grid.axis_count()) return std::size_t{0};
    const auto& values = study_->grid.values(axis);
    const AxisRange a{0, 1, study_->study.sweep[axis].scale == study::SweepScale::Log};
    const double d = a.to_display(value);
    std::size_t best = 0;
    if (values.size() > 1) {
        const double first = a.to_display(values.front()), last = a.to_display(values.back());
        const double f = (d - first) / (last - first) * (values.size() - 1);
        if (kind_ == FigureKind::Map && (f < -0.5 || f > values.size() - 0.5)) return std::nullopt;
        best = static_cast<std::size_t>(std::clamp(std::lround(f), 0L, long(values.size() - 1)));
    }
    return best;
}

std::optional<std::size_t> ResultFigure::systemAt(double x, double y) const {
    const auto i = nearestGridIndex(0, x);
    if (!i) return std::nullopt;
    if (kind_ == FigureKind::Diagram) return *i;
    const auto j = nearestGridIndex(1, y);
    if (!j) return std::nullopt;
    return *j * study_->grid.values(0).size() + *i;
}

QString ResultFigure::describeDiagram(std::size_t system, double x, double y) const {
    const QString text = xLabel() + " = " + figure_number(sweptValue(system, 0));
    const AxisRange& ax = image_range_.x;
    const AxisRange& ay = image_range_.y;
    const int px =
        static_cast<int>(std::floor((ax.to_display(x) - ax.display_from()) /
                                    (ax.display_to() - ax.display_from()) * image_pixels_.width()));
    const int py =
        static_cast<int>(std::floor((ay.display_to() - ay.to_display(y)) /
                                    (ay.display_to() - ay.display_from()) * image_pixels_.height()));
    const auto failure = [this](std::size_t s) {
        return study::is_failure(status_[s]) ? QString::fromLatin1(study::name_of(status_[s])) : QString();
    };
    const auto points = [](std::uint32_t n) { return QString::number(n) + (n == 1 ? " point" : " points"); };
    if (!study_->is_continuation()) {
        if (!failure(system).isEmpty()) return text + ": " + failure(system);
        return text + ", " + yLabel() + " = " + figure_number(y) + ", " + points(shownCount(px, py, false));
    }
    // A chain of L systems runs up its row's first axis, then down: step i and step L - 1 - i share
    // a grid point.
    const std::size_t length = study_->chain_length();
    const std::size_t down = system / length * length + (length - 1 - system % length);
    const QString up_failure = failure(system), down_failure = failure(down);
    if (!up_failure.isEmpty() && !down_failure.isEmpty())
        return text + ": " +
               (up_failure == down_failure ? up_failure : up_failure + " up, " + down_failure + " down");
    return text + ", " + yLabel() + " = " + figure_number(y) +
           ", up: " + (up_failure.isEmpty() ? points(shownCount(px, py, false)) : up_failure) +
           ", down: " + (down_failure.isEmpty() ? points(shownCount(px, py, true)) : down_failure);
}

QString ResultFigure::describe(double x, double y) const {
    const auto system = systemAt(x, y);
    if (!system) return {};
    if (kind_ == FigureKind::Diagram) return describeDiagram(*system, x, y);
    QString text = xLabel() + " = " + figure_number(sweptValue(*system, 0));
    if (study_->grid.axis_count() > 1)
        text += ", " + yLabel() + " = " + figure_number(sweptValue(*system, 1));
    // the system's own value (a kept map's, read back), not that of a coarse pass's stand-in
    std::optional<std::pair<double, study::SystemStatus>> cell;
    const std::size_t width = study_->grid.values(0).size();
    const std::size_t i = *system % width, j = *system / width, step = kept_ ? kept_->step() : 1;
    if (kept_)
        cell = kept_->kept() || (i % step == 0 && j % step == 0) ? mapCell(i, j) : std::nullopt;
    else if (owner_[*system] != no_owner)
        cell = std::pair{mapValue(*system), status_[*system]};
    if (!cell) return text + ": not computed yet";
    const auto [v, status] = *cell;
    if (study::is_failure(status)) return text + ": " + QString::fromLatin1(study::name_of(status));
    const QString name = quantities_.value(quantity_);
    if (quantity_ == quantities_.size() - 1) return text + ": " + QString::fromLatin1(study::name_of(status));
    if (name == "period")
        return text + (v > 0 ? QStringLiteral(", period %1").arg(v) : QStringLiteral(", no period found"));
    if (name == "label")
        return text + (v >= 0 ? QStringLiteral(", attractor %1").arg(v) : QStringLiteral(", no attractor"));
    return text + ", " + name + " = " + figure_number(v);
}

QString legend_overflow(const ColorKey& key, std::size_t shown) {
    if (shown >= key.entries.size()) return {};
    int lo = std::numeric_limits<int>::max(), hi = -1;
    QStringList others;
    for (std::size_t i = shown; i < key.entries.size(); ++i) {
        const LegendEntry& e = key.entries[i];
        if (e.number >= 0)
            lo = std::min(lo, e.number), hi = std::max(hi, e.number);
        else
            others << e.label;
    }
    QStringList parts;
    if (hi >= 0)
        parts << (lo == hi ? QStringLiteral("%1 %2").arg(key.numbered).arg(lo)
                           : QStringLiteral("%1 %2\u2013%3").arg(key.numbered).arg(lo).arg(hi));
    parts << others;
    return QStringLiteral("\u2026 %1 more (%2)").arg(key.entries.size() - shown).arg(parts.join(", "));
}

} // namespace bif::plot
