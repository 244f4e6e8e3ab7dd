#include "ui/plot/zoomed_study.h"

#include <algorithm>

namespace bif::plot {

namespace {

void zoom_axis(study::SweepAxis& axis, const AxisRange& range, int pixels) {
    double from = std::min(range.from, range.to), to = std::max(range.from, range.to);
    if (axis.scale == study::SweepScale::Log) {
        from = std::max(from, 1e-300);
        to = std::max(to, from * (1 + 1e-12));
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
