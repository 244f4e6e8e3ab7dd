#include "ui/views/figure_gl_drawing.h"

#include "ui/render/plot_colours.h"

#include <QPainter>
#include <vector>

namespace bif::ui {

namespace {

render::DataRect display_rect(const plot::PlotRange& r) {
    return {r.x.display_from(), r.y.display_from(), r.x.display_to(), r.y.display_to()};
}

} // namespace

bool FigureGlDrawing::supports(const plot::ResultFigure& figure) {
    return figure.kind() == plot::FigureKind::Map || !figure.colorKey().categorical;
}

bool FigureGlDrawing::initialize(render::Gl* gl) {
    failure_.clear();
    const bool ready = gl ? renderer_.initialize(*gl, &failure_) : renderer_.initialize(&failure_);
    if (!ready && failure_.isEmpty()) failure_ = QStringLiteral("no renderer");
    uploaded_figure_ = nullptr;
    path_ = render::choose_render_path();
    try {
        if (path_.cuda) cuda_ = std::make_unique<render::CudaFigureDensity>(path_.device);
    } catch (const std::exception& e) {
        // No render kernels (NVRTC failed, out of memory): the host path, with the reason.
        path_ = {false, -1, QStringLiteral("host upload: ") + QString::fromStdString(e.what())};
    }
    return ready;
}

std::optional<int> FigureGlDrawing::cudaDevice() const {
    if (path_.description.isEmpty()) return std::nullopt;
    return cuda_ ? path_.device : -1;
}

QString FigureGlDrawing::uploadPath(const plot::ResultFigure* figure) const {
    if (path_.description.isEmpty()) return QStringLiteral("host upload");
    if (cuda_ && figure && figure->keptMap() && figure->keptColumn())
        return path_.description + QStringLiteral(": the map stays on the GPU");
    if (figure && figure->keptPoints()) {
        if (cuda_ && cuda_->draws(*figure))
            return path_.description + QStringLiteral(": the points stay on the GPU");
        return QStringLiteral("host upload: the density of points kept in %1")
            .arg(QString::fromStdString(figure->keptPoints()->where()));
    }
    if (figure && figure->keptOnDevice())
        return QStringLiteral("host upload: the kept map's sample (%1 x %2)")
            .arg(figure->keptPicture()->sampleSize().width())
            .arg(figure->keptPicture()->sampleSize().height());
    if (cuda_ && figure && figure->kind() == plot::FigureKind::Map)
        return QStringLiteral("host upload: map cells are in host memory");
    // The first line of the reason, without the details in parentheses.
    const QString line = path_.description.section(QLatin1Char('\n'), 0, 0);
    const qsizetype details = line.indexOf(QStringLiteral(" ("));
    return details > 0 ? line.left(details) : line;
}

// On a CUDA failure the drawing falls back to the host path for good, with the reason in uploadPath().
void FigureGlDrawing::fallBack(const std::exception& e, bool& changed) {
    cuda_.reset();
    path_ = {false, -1, QStringLiteral("host upload: CUDA path failed: ") + QString::fromStdString(e.what())};
    uploaded_figure_ = nullptr;
    written_kept_ = nullptr;
    changed = true;
}

// The CUDA path for a diagram: the view rebinned on the GPU at the canvas's pixels.
bool FigureGlDrawing::drawOnGpu(const plot::ResultFigure& f, const plot::PlotRange& view, QSize pixels,
                                bool& changed) {
    if (!cuda_) return false;
    if (f.kind() == plot::FigureKind::Map) return drawKeptOnGpu(f, view, changed);
    if (!cuda_->draws(f)) return false; // points kept on another device: the figure's own picture
    if (pixels.isEmpty()) return true;
    try {
        cuda_->update(*renderer_.gl(), density_, f, view, pixels);
    } catch (const std::exception& e) {
        fallBack(e, changed);
        return false;
    }
    renderer_.draw(density_, display_rect(view), display_rect(view));
    return true;
}

// A map kept on this GPU: its cells go from the kept map into the layer (a kernel, nothing through
// the host) once per figure revision, coloured as the figure's sample is; the status view from the
// statuses kept with its first column. Other maps and a preview still take the host upload.
bool FigureGlDrawing::drawKeptOnGpu(const plot::ResultFigure& f, const plot::PlotRange& view, bool& changed) {
    const study::KeptMap* kept = f.keptMap();
    const auto column = f.keptColumn();
    const plot::MapColouring* colouring = f.mapColouring();
    if (!kept || !column || !colouring) return false;
    render::Gl& gl = *renderer_.gl();
    if (written_kept_ != kept || written_revision_ != f.revision() || uploaded_figure_ != &f) {
        try {
            if (f.scalarShown() < 0)
                cuda_->path().writeKeptStatuses(gl, map_, *kept);
            else
                cuda_->path().writeKept(gl, map_, *kept, *column);
        } catch (const std::exception& e) {
            fallBack(e, changed);
            return false;
        }
        render::colour_like(gl, map_, *colouring);
        written_kept_ = kept;
        written_revision_ = f.revision();
        uploaded_figure_ = &f;
        uploaded_revision_ = 0; // the layer no longer holds a host upload
    }
    renderer_.draw(map_, display_rect(f.fullRange()), display_rect(view));
    return true;
}

void FigureGlDrawing::release() {
    if (cuda_) cuda_->release();
    cuda_.reset();
    density_.release();
    map_.release();
    renderer_.release();
}

// The host path: the figure's counts or cells, as its image was last painted, into the layers.
void FigureGlDrawing::upload(const plot::ResultFigure& f) {
    if (uploaded_figure_ == &f && uploaded_revision_ == f.revision()) return;
    uploaded_figure_ = &f;
    uploaded_revision_ = f.revision();
    render::Gl& gl = *renderer_.gl();
    const QSize size = f.image().size();
    if (size.isEmpty()) return;
    written_kept_ = nullptr;
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
    if (const plot::KeptMapPicture* sample = f.keptPicture())
        sample->sampleCells(f.scalarShown(), values, statuses);
    else
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

bool FigureGlDrawing::draw(const plot::ResultFigure* figure, const plot::PlotRange& view, QSize pixels,
                           QColor base) {
    render::Gl* gl = renderer_.gl();
    if (!gl) return false;
    bool changed = false;
    gl->glViewport(0, 0, pixels.width(), pixels.height());
    gl->glClearColor(base.redF(), base.greenF(), base.blueF(), 1.0f);
    gl->glClear(GL_COLOR_BUFFER_BIT);
    // a host picture binned for other axis scales waits for the figure's next pass (as FigurePainter
    // does: the view has just turned logarithmic or back)
    if (figure && !drawOnGpu(*figure, view, pixels, changed) && figure->imageRange().same_scales(view)) {
        upload(*figure);
        const render::DataRect extent = display_rect(figure->imageRange()), shown = display_rect(view);
        if (figure->kind() == plot::FigureKind::Diagram)
            renderer_.draw(density_, extent, shown);
        else
            renderer_.draw(map_, extent, shown);
    }
    return changed;
}

void paint_canvas_overlay(QPainter& p, const QRect& area, const QPalette& palette, bool stale,
                          const QRect& band) {
    if (stale) {
        QColor veil = palette.color(QPalette::Base);
        veil.setAlpha(170);
        p.fillRect(area, veil);
        p.setPen(palette.color(QPalette::Text));
        p.drawText(area, Qt::AlignCenter, QStringLiteral("outdated"));
    }
    if (!band.isNull()) {
        QColor fill = palette.color(QPalette::Highlight);
        fill.setAlpha(60);
        p.setPen(QPen(palette.color(QPalette::Highlight), 1.0, Qt::DashLine));
        p.setBrush(fill);
        p.drawRect(band);
    }
}

} // namespace bif::ui
