// Paints a ResultFigure for a given view range into any QPainter rectangle: title, axes with nice
// ticks, axis labels, the image, and the colour key (a ramp with ticks, or categorical entries).
// The same code draws the widget, PNG export and SVG export (vector axes and text, image embedded).
#pragma once

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
};

struct FigureLayout {
    QRectF plot; // the image area, inside the axes
    QRectF key;  // the colour key
    QRectF title;
};

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
