// Paints a ResultFigure for a given view range into any QPainter rectangle: title, axes with nice
// ticks, axis labels, the image, and the colour key (a ramp with ticks, or categorical entries).
// The same code draws the widget, PNG export and SVG export (vector axes and text, image embedded).
#pragma once

#include "ui/plot/branch_overlay.h"
#include "ui/plot/plot_range.h"
#include "ui/plot/result_figure.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QPointF>
#include <QRectF>

class QPainter;
class QPaintDevice;

namespace bif::plot {

struct PaintOptions {
    bool stale = false; // grey the picture: a cancelled or outdated result
    QColor background = Qt::white;
    QColor foreground = QColor(0x20, 0x20, 0x20);
    QFont font;
    // The picture the figure replaces (a zoom's previous one) at the range it covers: drawn rescaled
    // under the figure's image, whose empty pixels are transparent, until the new passes cover it.
    QImage backdrop;
    PlotRange backdrop_range;
    // Continuation branches drawn over the picture where they lie on its axes (branch_painter.h).
    std::shared_ptr<const Overlays> branches;
};

struct FigureLayout {
    QRectF plot; // the image area, inside the axes
    QRectF key;  // the colour key
    QRectF title;
};

// The parts every figure shares, for figures that are not a ResultFigure (branch_figure.h): the
// title's rectangle, the plot rectangle left of a key `key_width` wide (0: none), the height the plot
// gets, the title, and the frame with ticks and axis names (x tick labels may reach `right_room`
// past the plot's right edge).
QRectF title_rect_for(const QRectF& target, const PaintOptions& options, const QPaintDevice* device);
double plot_height_for(const QRectF& target, const PaintOptions& options, const QPaintDevice* device);
QRectF plot_rect_for(const QRectF& target, const PlotRange& view, double key_width,
                     const PaintOptions& options, const QPaintDevice* device);
void paint_title(QPainter& p, const QRectF& rect, const QString& text, const PaintOptions& options);
void paint_plot_axes(QPainter& p, const QRectF& plot, double right_room, const PlotRange& view,
                     const QString& x_name, const QString& y_name, const PaintOptions& options);

class FigurePainter {
  public:
    FigurePainter(const ResultFigure& figure, PaintOptions options = {});

    // `device` gives the font metrics (null: the screen's).
    FigureLayout layout(const QRectF& target, const PlotRange& view,
                        const QPaintDevice* device = nullptr) const;
    void paint(QPainter& painter, const QRectF& target, const PlotRange& view) const;

    // Between data values and positions in the plot rectangle, honouring log axes.
    static QPointF toPixel(const QRectF& plot, const PlotRange& view, double x, double y);
    static QPointF toData(const QRectF& plot, const PlotRange& view, QPointF pixel);

  private:
    void paintImage(QPainter& p, const QRectF& plot, const PlotRange& view) const;
    static void paintImageAt(QPainter& p, const QRectF& plot, const PlotRange& view, const QImage& image,
                             const PlotRange& range);
    void paintAxes(QPainter& p, const FigureLayout& l, const PlotRange& view) const;
    void paintKey(QPainter& p, const QRectF& key) const;

    const ResultFigure& figure_;
    PaintOptions options_;
};

} // namespace bif::plot
