// Writes a figure as the view shows it: PNG at any size up to 8192 pixels wide, or SVG with vector
// axes and text and the image embedded. Returns an empty string on success, else why it failed.
#pragma once

#include "ui/plot/figure_painter.h"

#include <QImage>
#include <QSize>
#include <QString>

namespace bif::plot {

inline constexpr int max_export_width = 8192;

QImage render_figure(ResultFigure& figure, const PlotRange& view, QSize size,
                     const PaintOptions& options = {});
QString export_png(ResultFigure& figure, const PlotRange& view, QSize size, const QString& path,
                   const PaintOptions& options = {});
QString export_svg(ResultFigure& figure, const PlotRange& view, QSize size, const QString& path,
                   const PaintOptions& options = {});

} // namespace bif::plot
