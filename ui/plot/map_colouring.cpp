#include "ui/plot/map_colouring.h"

#include "engine/analysis/attractor_table.h"
#include "ui/plot/result_figure.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace bif::plot {

namespace {

bool is_categorical(const QString& name) {
    return name == "period" || name == "label" || name == "status";
}

} // namespace

MapColouring::MapColouring(QString name, bool status_view)
    : name_(std::move(name)), status_view_(status_view), categorical_(is_categorical(name_)),
      diverging_(name_.startsWith("lambda")), labels_(name_ == "label"),
      map_(diverging_                    ? ColorMapKind::Diverging
           : name_.startsWith("events_") ? ColorMapKind::Magma
                                         : ColorMapKind::Viridis),
      lo_(std::numeric_limits<double>::infinity()), hi_(-std::numeric_limits<double>::infinity()),
      present_(most_categories + 1, 0) {
    for (int st = 0; st < 256; ++st) {
        const auto status = study::SystemStatus(st);
        if (status_view_) continue;
        if (study::is_failure(status)) status_colour_[st] = failed_color;
        if (status == study::SystemStatus::Escaped) status_colour_[st] = escape_color;
    }
    for (int v = -1; v < most_categories; ++v)
        category_colours_.push_back(categoryColour(v));
}

bool MapColouring::include(double value, study::SystemStatus status) {
    const bool failed = study::is_failure(status) && !status_view_;
    const bool escaped = status == study::SystemStatus::Escaped && !status_view_;
    any_failed_ |= failed;
    any_escaped_ |= escaped;
    if (failed || escaped || !std::isfinite(value)) return false;
    lo_ = std::min(lo_, value), hi_ = std::max(hi_, value);
    if (categorical_) {
        present_[std::clamp<long>(std::lround(value), -1, most_categories - 1) + 1] = 1;
        return false;
    }
    return settled_ && !(value >= from_ && value <= to_);
}

bool MapColouring::include(const render::MapSummary& summary) {
    bool outside = false;
    for (int st = 0; st < 256; ++st) {
        if (!(summary.statuses[st >> 5] >> (st & 31) & 1u)) continue;
        // coloured by status, a cell's value is its status (ResultFigure passes it so)
        if (status_view_) outside |= include(double(st), study::SystemStatus(st));
        const auto status = study::SystemStatus(st);
        any_failed_ |= study::is_failure(status) && !status_view_;
        any_escaped_ |= status == study::SystemStatus::Escaped && !status_view_;
    }
    if (status_view_) return outside;
    if (summary.lo_key > summary.hi_key) return false; // no value counted
    const double lo = render::float_of_order_key(summary.lo_key),
                 hi = render::float_of_order_key(summary.hi_key);
    lo_ = std::min(lo_, lo), hi_ = std::max(hi_, hi);
    if (categorical_) {
        for (int v = -1; v < most_categories; ++v)
            if (summary.categories[(v + 1) >> 5] >> ((v + 1) & 31) & 1u) present_[v + 1] = 1;
        return false;
    }
    return settled_ && !(lo >= from_ && hi <= to_);
}

void MapColouring::settle() {
    double lo = lo_, hi = hi_;
    if (!(hi >= lo)) lo = 0.0, hi = 1.0;
    if (diverging_) hi = std::max({std::abs(lo), std::abs(hi), 1e-12}), lo = -hi;
    if (hi == lo) hi = lo + 1.0;
    from_ = lo, to_ = hi;
    settled_ = true;
}

QRgb MapColouring::categoryColour(int v) const {
    if (status_view_) return categorical_color(v);
    if (labels_) return v < 0 ? none_found_color : categorical_color(v);
    return v <= 0 ? none_found_color : categorical_color(v - 1);
}

ColorKey MapColouring::key() const {
    ColorKey key;
    key.label = name_;
    key.categorical = categorical_;
    if (categorical_) {
        key.numbered = labels_ ? QStringLiteral("attractors") : QStringLiteral("periods");
        for (int v = -1; v < most_categories; ++v) {
            if (!present_[v + 1]) continue;
            LegendEntry e{categoryColour(v), {}, -1};
            if (status_view_) {
                e.label = QString::fromLatin1(study::name_of(study::SystemStatus(v)));
            } else if (labels_) {
                e.label = v < 0 ? QStringLiteral("none") : QStringLiteral("attractor %1").arg(v);
                e.number = v;
            } else {
                e.label = v <= 0 ? QStringLiteral("none found") : QStringLiteral("period %1").arg(v);
                e.number = v <= 0 ? -1 : v;
            }
            key.entries.push_back(e);
        }
    } else {
        for (int i = 0; i < 256; ++i)
            key.ramp.push_back(map_.at(i / 255.0));
        key.from = from_;
        key.to = to_;
    }
    if (any_escaped_)
        key.entries.push_back({escape_color, QString::fromLatin1(analysis::AttractorTable::escape_name), -1});
    if (any_failed_ && !status_view_) key.entries.push_back({failed_color, QStringLiteral("failed"), -1});
    return key;
}

} // namespace bif::plot
