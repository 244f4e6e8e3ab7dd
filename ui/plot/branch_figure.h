// A figure of continuation overlays alone, for a study of kind equilibria, continuation, curves or
// orbit_continuation opened by itself: x the continued parameter (equilibria: the first state), y a
// state, the state's norm or the second parameter, with a legend of the overlays on the right. Drawn
// by the same painters as the diagrams (figure_painter.h's axes, branch_painter.h), so its PNG and SVG
// match the screen.
#pragma once

#include "ui/plot/branch_overlay.h"
#include "ui/plot/figure_painter.h"

#include <QImage>
#include <QSize>
#include <QStringList>
#include <memory>

namespace bif::plot {

class BranchFigure {
  public:
    BranchFigure(QString title, std::shared_ptr<const Overlays> overlays);

    QString title() const { return title_; }
    const Overlays& overlays() const { return *overlays_; }
    std::shared_ptr<const Overlays> sharedOverlays() const { return overlays_; }
    QString xName() const { return x_; }
    // The y axis' choices: the states and their norm (branches), the second parameter (curves).
    QStringList quantities() const { return quantities_; }
    QString quantity() const { return y_; }
    bool setQuantity(const QString& name);
    OverlayAxes axes() const { return {x_, y_}; }
    // Every point that lies on the axes, with a twentieth of margin on each side.
    PlotRange fullRange() const;

  private:
    QString title_;
    std::shared_ptr<const Overlays> overlays_;
    QString x_, y_;
    QStringList quantities_;
};

// The plot rectangle of the figure in `target` (the legend to its right).
QRectF branch_plot_rect(const BranchFigure& figure, const QRectF& target, const PlotRange& view,
                        const PaintOptions& options, const QPaintDevice* device);
void paint_branch_figure(QPainter& p, const BranchFigure& figure, const QRectF& target, const PlotRange& view,
                         const PaintOptions& options = {});
QImage render_branch_figure(const BranchFigure& figure, const PlotRange& view, QSize size,
                            const PaintOptions& options = {});
QString export_branch_png(const BranchFigure& figure, const PlotRange& view, QSize size, const QString& path,
                          const PaintOptions& options = {});
QString export_branch_svg(const BranchFigure& figure, const PlotRange& view, QSize size, const QString& path,
                          const PaintOptions& options = {});

} // namespace bif::plot
