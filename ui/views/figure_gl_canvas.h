// The image area of a PlotView drawn with OpenGL through ui/render: a ResultFigure's histogram
// counts or map cells uploaded from host memory into the renderer's layers (the host path) and
// drawn at the view's range, with the stale veil and the rubber band painted on top by QPainter.
// Transparent for the mouse: PlotView handles every event. Figures the layers cannot show (a
// diagram of two sweep directions) are left to PlotView's QPainter image: supports() says which.
#pragma once

#include "ui/plot/plot_range.h"
#include "ui/plot/result_figure.h"
#include "ui/render/cuda_render_path.h"
#include "ui/render/renderer.h"

#include <QOpenGLWidget>
#include <QRect>
#include <QString>
#include <cstdint>
#include <memory>

namespace bif::ui {

class FigureGlCanvas : public QOpenGLWidget {
    Q_OBJECT
  public:
    explicit FigureGlCanvas(QWidget* parent = nullptr);
    ~FigureGlCanvas() override;

    // Whether the layers can show `figure` as its QPainter image does.
    static bool supports(const plot::ResultFigure& figure);
    // What to draw: the figure (may be null), the range on show, the veil, the band (canvas pixels).
    void setContent(std::shared_ptr<plot::ResultFigure> figure, const plot::PlotRange& view, bool stale,
                    const QRect& band);
    // Empty while drawing works; else why not (no 3.3 core context, a shader that did not build).
    QString failure() const { return failure_; }
    // How results reach the GL buffers, for the status bar: "CUDA on <GPU>" (diagrams binned on the
    // GPU), or "host upload", with the reason where the CUDA path is not taken.
    QString uploadPath() const;

  protected:
    void initializeGL() override;
    void paintGL() override;

  private:
    void upload();
    bool drawOnGpu(const render::DataRect& view);
    void releaseGl();

    std::shared_ptr<plot::ResultFigure> figure_;
    const plot::ResultFigure* uploaded_figure_ = nullptr;
    std::uint64_t uploaded_revision_ = 0;
    plot::PlotRange view_;
    bool stale_ = false;
    QRect band_;
    render::Renderer renderer_;
    render::DensityLayer density_;
    render::MapLayer map_;
    QString failure_;
    render::RenderPathChoice path_;
    std::unique_ptr<render::CudaFigureDensity> cuda_;
};

} // namespace bif::ui
