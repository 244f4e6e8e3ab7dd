// Shows a ResultFigure and lets the user move through it: wheel zoom about the cursor, drag to pan,
// rubber-band zoom (Shift+drag or right-drag), back/forward through the zoom history (Alt+Left,
// Alt+Right), reset (Home). During an interaction the current picture is stretched at once; when
// the interaction settles (250 ms after the last wheel step, or on mouse release) the figure is
// rebinned for the new range and viewRequested asks the owner to recompute there. Zoom and pan
// work in display coordinates, so a log axis (the sweep's, or a diagram's log y) zooms by decades;
// when the figure's y axis turns log or linear the view follows on its next refresh.
//
// Paint cost: paintEvent only draws the figure's cached image and the axes; the figure's image is
// brought up to date by a coalescing 40 ms timer, however fast blocks arrive, in slices of at most
// ~12 ms of work with the event loop running between them (a whole recolour of a 4096^2 map, or a
// rebin of 10^7 points, takes several). The value under the cursor shows as a tooltip and in
// hovered().
//
// The image area is drawn with OpenGL (a FigureCanvas over the plot rectangle, through ui/render)
// where an OpenGL 3.3 core context can be had: Qt's (FigureGlCanvas), or where the window system
// gives none, an EGL device's on a CUDA GPU, read back (FigureEglCanvas); else by QPainter with the
// rest. renderPath() says which, with the reason for a fallback, in one line for a status bar.
#pragma once

#include "ui/plot/branch_overlay.h"
#include "ui/plot/figure_painter.h"
#include "ui/plot/plot_range.h"
#include "ui/plot/result_figure.h"

#include <QImage>
#include <QPoint>
#include <QTimer>
#include <QWidget>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace bif::ui {

class FigureCanvas;

class PlotView : public QWidget {
    Q_OBJECT
  public:
    explicit PlotView(QWidget* parent = nullptr);

    // Shows `figure` at its full range; the history starts again.
    void setFigure(std::shared_ptr<plot::ResultFigure> figure);
    // Shows `figure` in place of the current one, keeping the range and the history: a zoom's
    // recomputed figure, or one restored from the owner's cache when the history steps back.
    void replaceFigure(std::shared_ptr<plot::ResultFigure> figure);
    plot::ResultFigure* figure() const { return figure_.get(); }

    plot::PlotRange range() const { return range_; }
    // Moves to `range` as one step of the history (emits viewRequested).
    void setRange(const plot::PlotRange& range);
    bool isStale() const { return stale_; }
    // A picture shown rescaled under the figure's (a zoom's previous picture, at the range it
    // covers) until clearBackdrop(); the QPainter path draws it, so the GL canvas stands aside.
    void setBackdrop(QImage image, const plot::PlotRange& range);
    void clearBackdrop();
    bool hasBackdrop() const { return !backdrop_.isNull(); }
    QRectF plotArea() const;
    bool canGoBack() const { return history_index_ > 0; }
    bool canGoForward() const { return history_index_ + 1 < history_.size(); }
    // "OpenGL 3.3 (CUDA on <GPU>)", "OpenGL 3.3 (host upload: <why not CUDA>)", "OpenGL 3.3, EGL
    // offscreen (CUDA on <GPU>)" or "QPainter: <why not OpenGL>".
    QString renderPath() const;
    // The CUDA device the canvas draws on (a map kept there is drawn from there), -1 where pictures
    // take the host path, none while the canvas has not drawn yet.
    std::optional<int> cudaDevice() const;
    // Continuation overlays drawn over the figure (branch_painter.h); while there are any the picture
    // takes the QPainter path, which draws them above it. Hovering one of their points describes it.
    void setBranches(std::shared_ptr<const plot::Overlays> branches);
    std::shared_ptr<const plot::Overlays> branches() const { return branches_; }
    // The branch point under `pixel` (widget coordinates) in words; empty where there is none.
    QString branchTextAt(QPointF pixel) const;

  public slots:
    // The figure received data: refresh its image and repaint within ~40 ms.
    void figureChanged();
    void setStale(bool stale);
    void back();
    void forward();
    void resetView();

  signals:
    void viewRequested(const bif::plot::PlotRange& range);
    void hovered(const QString& text);
    void systemClicked(std::size_t system);
    // A right click that did not drag (the menu of a point), at data point `data`, `global` on screen.
    void pointMenuRequested(QPointF data, QPoint global);
    // "Continue from here" (key B) at the data point under the cursor.
    void continueRequested(QPointF data);
    // renderPath() changed (another figure, or the GL canvas failed when it first drew); checked at paint.
    void renderPathChanged(const QString& path);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

  private:
    enum class Drag { None, Pan, Band };
    plot::PaintOptions paintOptions() const;
    void refreshFigure();
    void followYScale();
    void refreshSlice();
    void settle();
    void showHistoryEntry();
    plot::PlotRange shifted(const plot::PlotRange& from, QPointF pixels) const;
    void syncCanvas();

    std::shared_ptr<plot::ResultFigure> figure_;
    plot::PlotRange range_;
    std::vector<plot::PlotRange> history_;
    std::size_t history_index_ = 0;
    bool user_moved_ = false; // while false the view follows the data's full range
    bool stale_ = false;
    QImage backdrop_;
    plot::PlotRange backdrop_range_;
    QTimer repaint_timer_;
    QTimer settle_timer_;
    QTimer slice_timer_; // the next slice of a refresh, once pending events are handled
    Drag drag_ = Drag::None;
    QPoint press_pos_;
    QPoint last_pos_;
    plot::PlotRange press_range_;
    bool moved_since_press_ = false;
    FigureCanvas* canvas_ = nullptr; // null on the QPainter path; a child widget, owned as one
    QString no_gl_reason_;
    QString painted_path_; // renderPath() at the last paint
    std::shared_ptr<const plot::Overlays> branches_;
};

} // namespace bif::ui

Q_DECLARE_METATYPE(bif::plot::PlotRange)
