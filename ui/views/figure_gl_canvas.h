// The image area of a PlotView drawn with OpenGL in Qt's context (a QOpenGLWidget): the figure's
// FigureGlDrawing, with the stale veil and the rubber band painted on top by QPainter. Figures the
// layers cannot show (a diagram of two sweep directions) are left to PlotView's QPainter image:
// FigureGlDrawing::supports() says which.
#pragma once

#include "ui/views/figure_canvas.h"
#include "ui/views/figure_gl_drawing.h"

#include <QOpenGLWidget>

namespace bif::ui {

class FigureGlCanvas : public QOpenGLWidget, public FigureCanvas {
    Q_OBJECT
  public:
    explicit FigureGlCanvas(QWidget* parent = nullptr);
    ~FigureGlCanvas() override;

    QWidget* widget() override { return this; }
    QString failure() const override { return drawing_.failure(); }
    QString renderPath(const plot::ResultFigure* figure) const override;
    std::optional<int> cudaDevice() const override { return drawing_.cudaDevice(); }

  protected:
    void initializeGL() override;
    void paintGL() override;

  private:
    void releaseGl();

    FigureGlDrawing drawing_;
};

} // namespace bif::ui
