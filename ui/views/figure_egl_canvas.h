// The image area of a PlotView drawn with OpenGL where the window system gives Qt none (an X
// display without GLX: Xvfb on a GPU server, a display forwarded over ssh -X): an EGL device
// context of its own on the GPU, drawing the figure's FigureGlDrawing into a framebuffer that is
// read back and painted as an image, the way VirtualGL serves remote displays. On a CUDA device the
// CUDA path runs as in FigureGlCanvas; only the finished picture crosses to host memory.
//
// PlotView takes it only for an EGL device that is a CUDA device (what it is for), unless
// BIFSCOPE_EGL_CANVAS=1 allows any EGL device (Mesa's software one: how CI tests it);
// BIFSCOPE_EGL_CANVAS=0 never takes it.
#pragma once

#include "ui/render/egl_device_context.h"
#include "ui/render/framebuffer.h"
#include "ui/views/figure_canvas.h"
#include "ui/views/figure_gl_drawing.h"

#include <QWidget>

namespace bif::ui {

class FigureEglCanvas : public QWidget, public FigureCanvas {
    Q_OBJECT
  public:
    // Creates its EGL context (on `cuda_device` where >= 0); failure() says why where it could not.
    explicit FigureEglCanvas(int cuda_device, QWidget* parent = nullptr);
    ~FigureEglCanvas() override;

    // Whether this machine has an EGL device to draw on as PlotView wants it (see above): the CUDA
    // ordinal of that device, -1 for a software one (allowed by BIFSCOPE_EGL_CANVAS=1); empty
    // `why` when there is one. Asked once.
    static int available(QString* why);

    QWidget* widget() override { return this; }
    QString failure() const override { return failure_; }
    QString renderPath(const plot::ResultFigure* figure) const override;
    std::optional<int> cudaDevice() const override { return drawing_.cudaDevice(); }

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    render::EglDeviceContext egl_;
    render::Framebuffer framebuffer_;
    FigureGlDrawing drawing_;
    QString failure_;
};

} // namespace bif::ui
