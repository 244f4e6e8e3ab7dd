// The image area of a PlotView drawn with OpenGL, by one of two widgets: FigureGlCanvas (Qt's own
// context) or FigureEglCanvas (an EGL device context, the picture read back). Both lie over the plot
// rectangle, transparent for the mouse (PlotView handles every event), and take the figure, range,
// veil and rubber band from PlotView::syncCanvas.
#pragma once

#include "ui/plot/plot_range.h"
#include "ui/plot/result_figure.h"

#include <QRect>
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>

namespace bif::ui {

// What a canvas draws: the figure (may be null), the range on show, the veil, the band (canvas pixels).
struct CanvasContent {
    std::shared_ptr<plot::ResultFigure> figure;
    plot::PlotRange view;
    bool stale = false;
    QRect band;
};

class FigureCanvas {
  public:
    virtual ~FigureCanvas() = default;
    virtual QWidget* widget() = 0;
    // Takes the content and repaints.
    void setContent(CanvasContent content) {
        content_ = std::move(content);
        widget()->update();
    }
    // Empty while drawing works; else why not.
    virtual QString failure() const = 0;
    // For the status bar, how `figure` is drawn: "OpenGL 3.3 (CUDA on <GPU>)", "OpenGL 3.3 (host
    // upload: <why>)", or with ", EGL offscreen" after "OpenGL 3.3" where the picture is drawn off
    // screen and read back.
    virtual QString renderPath(const plot::ResultFigure* figure) const = 0;
    // FigureGlDrawing::cudaDevice: where a map kept for this canvas should stay.
    virtual std::optional<int> cudaDevice() const = 0;

  protected:
    CanvasContent content_;
};

} // namespace bif::ui
