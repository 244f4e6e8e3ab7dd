// What a figure's image area looks like in OpenGL, whatever context it is drawn in: the renderer,
// the density and map layers, the choice of how results reach them (the CUDA path where the context
// runs on a CUDA device, else host upload) and the upload itself. FigureGlCanvas draws it in Qt's
// context (a QOpenGLWidget); FigureEglCanvas in an EGL device context of its own, read back as an
// image, where the window system gives Qt no OpenGL (an X display with no GLX: Xvfb, ssh -X).
#pragma once

#include "ui/plot/plot_range.h"
#include "ui/plot/result_figure.h"
#include "ui/render/cuda_render_path.h"
#include "ui/render/renderer.h"

#include <QColor>
#include <QPalette>
#include <QRect>
#include <QSize>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>

class QPainter;

namespace bif::ui {

class FigureGlDrawing {
  public:
    // Whether the layers can show `figure` as its QPainter image does.
    static bool supports(const plot::ResultFigure& figure);

    // In the context that draws it, current, through its GL table (null: current_gl()). Chooses the
    // render path there. False, with failure() set, when the renderer cannot work in it.
    bool initialize(render::Gl* gl = nullptr);
    // Draws `figure` at `view` into the bound framebuffer, whose `pixels` the viewport is set to,
    // over `base`. Returns true when the render path changed here (the CUDA path failed and gave
    // way to host upload): the status bar should be told.
    bool draw(const plot::ResultFigure* figure, const plot::PlotRange& view, QSize pixels, QColor base);
    // While the context is current, before it goes.
    void release();

    // Empty while drawing works; else why not (no 3.3 core context, a shader that did not build).
    QString failure() const { return failure_; }
    // How results reach the GL buffers: "CUDA on <GPU>" (diagrams binned on the GPU), or "host
    // upload", with the reason where the CUDA path is not taken.
    QString uploadPath(const plot::ResultFigure* figure) const;
    // The CUDA device the drawing's context runs on (where a map kept for it should stay), -1 when
    // results take the host path, none before initialize().
    std::optional<int> cudaDevice() const;

  private:
    void upload(const plot::ResultFigure& f);
    bool drawOnGpu(const plot::ResultFigure& f, const plot::PlotRange& view, QSize pixels, bool& changed);
    bool drawKeptOnGpu(const plot::ResultFigure& f, const plot::PlotRange& view, bool& changed);
    void fallBack(const std::exception& e, bool& changed);

    const plot::ResultFigure* uploaded_figure_ = nullptr;
    std::uint64_t uploaded_revision_ = 0;
    render::Renderer renderer_;
    render::DensityLayer density_;
    render::MapLayer map_;
    QString failure_;
    render::RenderPathChoice path_;
    std::unique_ptr<render::CudaFigureDensity> cuda_;
    // The kept map and revision the map layer holds on the CUDA path.
    const study::KeptMap* written_kept_ = nullptr;
    std::uint64_t written_revision_ = 0;
};

// What a canvas paints over the picture: the veil of an outdated figure and the rubber band.
void paint_canvas_overlay(QPainter& p, const QRect& area, const QPalette& palette, bool stale,
                          const QRect& band);

} // namespace bif::ui
