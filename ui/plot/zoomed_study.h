// The study a view asks for after zooming: the swept axes restricted to the view's range and
// resolved at the view's pixel resolution (capped), so a recomputation fills the picture exactly.
#pragma once

#include "engine/study/study.h"
#include "ui/plot/plot_range.h"

#include <QSize>

namespace bif::plot {

// Caps on the recomputed grid: a bifurcation sweep gets one system per pixel column, a map one cell
// per pixel, each axis at most this many.
inline constexpr int max_zoom_count = 4096;

// Axis 0 follows range.x, axis 1 (maps, basins) range.y; a log axis keeps log spacing. The bounds
// are clamped to positive values on log axes.
study::Study zoomed_study(const study::Study& study, const PlotRange& range, QSize pixels);

} // namespace bif::plot
