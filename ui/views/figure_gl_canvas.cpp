#include "ui/views/figure_gl_canvas.h"

#include "ui/render/plot_colours.h"

#include <QOpenGLContext>
#include <QPainter>
#include <vector>

namespace bif::ui {

namespace {

render::DataRect display_rect(const plot::PlotRange& r) {
    return {r.x.display_from(), r.y.display_from(), r.x.display_to(), r.y.display_to()};
}

} // namespace

FigureGlCanvas::FigureGlCanvas(QWidget* parent) : QOpenGLWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    QSurfaceFormat format = QSurfaceFormat::defaultFormat();
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    setFormat(format);
}

FigureGlCanvas::~FigureGlCanvas() {
    makeCurrent();
    releaseGl();
    doneCurrent();
}

bool FigureGlCanvas::supports(const plot::ResultFigure& figure) {
    return figure.kind() == plot::FigureKind::Map || !figure.colorKey().categorical;
}

void FigureGlCanvas::setContent(std::shared_ptr<plot::ResultFigure> figure, const plot::PlotRange& view,
                                bool stale, const QRect& band) {
    figure_ = std::move(figure);
    view_ = view;
    stale_ = stale;
    band_ = band;
    update();
}

void FigureGlCanvas::initializeGL() {
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &FigureGlCanvas::releaseGl);
    if (!renderer_.initialize(&failure_) && failure_.isEmpty()) failure_ = QStringLiteral("no renderer");
    uploaded_figure_ = nullptr;
    path_ = render::choose_render_path();
    try {
        if (path_.cuda) cuda_ = std::make_unique<render::CudaFigureDensity>(path_.device);
    } catch (const std::exception& e) {
        // No render kernels (NVRTC failed, out of memory): the host path, with the reason.
        path_ = {false, -1, QStringLiteral("host upload: ") + QString::fromStdString(e.what())};
    }
    // The status bar reads the path at the plot view's paint.
    if (parentWidget()) parentWidget()->update();
}

QString FigureGlCanvas::uploadPath() const {
    if (path_.description.isEmpty()) return QStringLiteral("host upload");
    if (cuda_ && figure_ && figure_->kind() == plot::FigureKind::Map)
        return QStringLiteral("host upload: map cells are in host memory");
    // The first line of the reason, without the details in parentheses.
    const QString line = path_.description.section(QLatin1Char('\n'), 0, 0);
    const qsizetype details = line.indexOf(QStringLiteral(" ("));
    return details > 0 ? line.left(details) : line;
}

// The CUDA path for a diagram: the view rebinned on the GPU at the canvas's pixels. On a CUDA
// failure the canvas falls back to the host path for good, with the reason in uploadPath().
bool FigureGlCanvas::drawOnGpu(const render::DataRect& view) {
    if (!cuda_ || figure_->kind() != plot::FigureKind::Diagram) return false;
    const qreal ratio = devicePixelRatioF();
    const QSize pixels(static_cast<int>(width() * ratio), static_cast<int>(height() * ratio));
    if (pixels.isEmpty()) return true;
    try {
        cuda_->update(*renderer_.gl(), density_, *figure_, view_, pixels);
    } catch (const std::exception& e) {
        cuda_.reset();
        path_ = {false, -1,
                 QStringLiteral("host upload: CUDA path failed: ") + QString::fromStdString(e.what())};
        uploaded_figure_ = nullptr;
        if (parentWidget()) parentWidget()->update();
        return false;
    }
    renderer_.draw(density_, view, view);
    return true;
}

void FigureGlCanvas::releaseGl() {
    if (cuda_) cuda_->release();
    cuda_.reset();
    density_.release();
    map_.release();
    renderer_.release();
}

// The host path: the figure's counts or cells, as its image was last painted, into the layers.
void FigureGlCanvas::upload() {
    const plot::ResultFigure& f = *figure_;
    if (uploaded_figure_ == &f && uploaded_revision_ == f.revision()) return;
    uploaded_figure_ = &f;
    uploaded_revision_ = f.revision();
    render::Gl& gl = *renderer_.gl();
    const QSize size = f.image().size();
    if (size.isEmpty()) return;
    if (f.kind() == plot::FigureKind::Diagram) {
        std::vector<std::uint32_t> counts(static_cast<std::size_t>(size.width()) * size.height());
        std::uint32_t most = 0;
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x)
                most = std::max(most, counts[y * size.width() + x] = f.count(x, y, false));
        density_.resize(gl, size);
        density_.setCounts(gl, counts.data(), most);
        density_.setRamp(gl, render::ramp_of(f.colorKey().ramp));
        density_.setScaling(f.densityScale() == plot::DensityScale::Log ? render::DensityScaling::Log
                                                                        : render::DensityScaling::Linear);
        return;
    }
    std::vector<float> values(static_cast<std::size_t>(size.width()) * size.height());
    std::vector<std::uint8_t> statuses(values.size(), render::no_system);
    for (int j = 0; j < size.height(); ++j)
        for (int i = 0; i < size.width(); ++i)
            if (const auto cell = f.mapCell(i, j)) {
                values[j * size.width() + i] = static_cast<float>(cell->first);
                statuses[j * size.width() + i] = static_cast<std::uint8_t>(cell->second);
            }
    map_.resize(gl, size);
    map_.setCells(gl, values.data(), statuses.data());
    if (const plot::MapColouring* colouring = f.mapColouring()) render::colour_like(gl, map_, *colouring);
}

void FigureGlCanvas::paintGL() {
    QPainter p(this);
    p.beginNativePainting();
    render::Gl* gl = renderer_.gl();
    if (gl) {
        const qreal ratio = devicePixelRatioF();
        gl->glViewport(0, 0, static_cast<GLsizei>(width() * ratio), static_cast<GLsizei>(height() * ratio));
        const QColor base = palette().color(QPalette::Base);
        gl->glClearColor(base.redF(), base.greenF(), base.blueF(), 1.0f);
        gl->glClear(GL_COLOR_BUFFER_BIT);
        if (figure_ && !drawOnGpu(display_rect(view_))) {
            upload();
            const render::DataRect extent = display_rect(figure_->imageRange()), view = display_rect(view_);
            if (figure_->kind() == plot::FigureKind::Diagram)
                renderer_.draw(density_, extent, view);
            else
                renderer_.draw(map_, extent, view);
        }
    }
    p.endNativePainting();
    if (stale_) {
        QColor veil = palette().color(QPalette::Base);
        veil.setAlpha(170);
        p.fillRect(rect(), veil);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect(), Qt::AlignCenter, QStringLiteral("outdated"));
    }
    if (!band_.isNull()) {
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(60);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1.0, Qt::DashLine));
        p.setBrush(fill);
        p.drawRect(band_);
    }
}

} // namespace bif::ui
