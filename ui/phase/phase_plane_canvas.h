// The phase plane's drawing on screen: PhasePlaneFigure painted into the widget. A click in the
// plot asks for a trajectory through that point, the wheel zooms about the cursor, and hovering an
// equilibrium shows its type and eigenvalues as a tooltip.
#pragma once

#include "ui/plot/phase_plane_figure.h"

#include <QWidget>

namespace bif::ui {

class PhasePlaneCanvas : public QWidget {
    Q_OBJECT
  public:
    explicit PhasePlaneCanvas(QWidget* parent = nullptr);

    void setScene(const plot::PhasePlaneScene* scene); // not owned; repaints
    QRectF plotRect() const;
    // The widget position of a plane point (for tests that click on the plot).
    QPoint positionOf(analysis::PlanePoint point) const;
    QSize sizeHint() const override { return {640, 520}; }
    QSize minimumSizeHint() const override { return {320, 260}; }

  signals:
    void pointClicked(bif::analysis::PlanePoint point);
    // The window scaled by `factor` about `centre` (wheel: < 1 zooms in).
    void zoomRequested(bif::analysis::PlanePoint centre, double factor);
    void hoverText(const QString& text);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

  private:
    const plot::PhasePlaneScene* scene_ = nullptr;
};

} // namespace bif::ui
