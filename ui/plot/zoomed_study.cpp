#include "ui/plot/zoomed_study.h"

#include "engine/study/decimal_rounding.h"

#include <algorithm>
#include <cmath>

namespace bif::plot {

namespace {

void zoom_axis(study::SweepAxis& axis, const AxisRange& range, int pixels) {
    double from = std::min(range.from, range.to), to = std::max(range.from, range.to);
    const int columns = std::max(pixels, 1);
    if (axis.scale == study::SweepScale::Log) {
        from = std::max(from, 1e-300);
        to = std::max(to, from * (1 + 1e-12));
        // A pixel's width at each bound: the log spacing's step there.
        const double ratio = std::pow(to / from, 1.0 / columns) - 1.0;
        from = std::max(study::round_to_resolution(from, from * ratio), 1e-300);
        to = std::max(study::round_to_resolution(to, to * ratio), from * (1 + 1e-12));
    } else {
        // The bounds as short decimals: no finer than the pixel the user pointed at.
        const double pixel = (to - from) / columns;
        from = study::round_to_resolution(from, pixel);
        to = study::round_to_resolution(to, pixel);
    }
    // Keep the sweep's direction (a continuation runs from `from` towards `to`).
    const bool descending = axis.from > axis.to;
    axis.from = descending ? to : from;
    axis.to = descending ? from : to;
    axis.count = std::clamp(pixels, 1, max_zoom_count);
}

} // namespace

study::Study zoomed_study(const study::Study& study, const PlotRange& range, QSize pixels) {
    study::Study zoomed = study;
    if (!zoomed.sweep.empty()) zoom_axis(zoomed.sweep[0], range.x, pixels.width());
    const bool two_axes =
        study.analysis == study::AnalysisKind::ParameterMap || study.analysis == study::AnalysisKind::Basins;
    if (two_axes && zoomed.sweep.size() > 1) zoom_axis(zoomed.sweep[1], range.y, pixels.height());
    return zoomed;
}

} // namespace bif::plot
