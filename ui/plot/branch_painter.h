// Draws continuation overlays (branch_overlay.h) into a plot rectangle: stable parts solid, unstable
// parts dashed, each overlay in a colour of its own; special points as rings with their label (LP, H,
// BP, PD, NS) placed beside them where it overlaps neither another label nor the plot's edge;
// equilibria at fixed parameters as dots (filled: stable). The same code draws the widget, PNG and SVG.
#pragma once

#include "ui/plot/branch_overlay.h"
#include "ui/plot/plot_range.h"

#include <QColor>
#include <QFont>
#include <QRectF>
#include <optional>
#include <vector>

class QPainter;
class QPaintDevice;

namespace bif::plot {

struct BranchStyle {
    QFont font;
    QColor background = Qt::white;
};

// The colour of the overlay at `index` (distinct from the density ramps' greys and blues).
QColor overlay_colour(std::size_t index);

struct PlacedLabel {
    QString text;
    QPointF anchor; // the special point, in pixels
    QRectF box;     // where its label is drawn
    std::size_t overlay = 0, point = 0;
};

// Where the labels of the special points go (the painter draws them there), for `device`'s fonts.
std::vector<PlacedLabel> place_branch_labels(const QRectF& plot, const PlotRange& view,
                                             const OverlayAxes& axes, const Overlays& overlays,
                                             const BranchStyle& style, const QPaintDevice* device);

void paint_branches(QPainter& p, const QRectF& plot, const PlotRange& view, const OverlayAxes& axes,
                    const Overlays& overlays, const BranchStyle& style);

struct BranchHit {
    std::size_t overlay = 0, point = 0;
    double distance = 0.0; // pixels
};
// The overlay point nearest to `pixel` within `radius` pixels (points, not the lines between them).
std::optional<BranchHit> branch_point_near(const QRectF& plot, const PlotRange& view, const OverlayAxes& axes,
                                           const Overlays& overlays, QPointF pixel, double radius);

// Pixel position of a data point, honouring log axes (FigurePainter::toPixel's rule); none where it
// is not finite (a log axis at a value <= 0).
std::optional<QPointF> data_to_pixel(const QRectF& plot, const PlotRange& view, QPointF data);

} // namespace bif::plot
