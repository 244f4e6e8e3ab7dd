#include "ui/views/plot_view.h"

#include "ui/plot/branch_painter.h"
#include "ui/render/offscreen_context.h"
#include "ui/views/figure_egl_canvas.h"
#include "ui/views/figure_gl_canvas.h"

#include <QCursor>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <chrono>
#include <cmath>

namespace bif::ui {

namespace {

constexpr int repaint_delay_ms = 40;
constexpr int settle_delay_ms = 250;
constexpr int click_slop_px = 3;
constexpr double branch_hover_px = 6.0;
// The most work one refresh slice does on the UI thread: well under a 60 Hz frame with the paint.
constexpr std::chrono::milliseconds slice_budget{12};

// Zooms one axis by `factor` about the display coordinate `centre`.
plot::AxisRange zoom_axis(plot::AxisRange a, double centre, double factor) {
    const double from = centre + (a.display_from() - centre) * factor;
    const double to = centre + (a.display_to() - centre) * factor;
    a.from = a.from_display(from);
    a.to = a.from_display(to);
    return a;
}

// Whether this platform gives an OpenGL 3.3 core context (asked once); else why not.
QString opengl_unavailable() {
    static const QString reason = [] {
        // QOpenGLWidget's composition crashes in Qt 6.4's offscreen backing store (rhiFlush).
        if (QGuiApplication::platformName() == QStringLiteral("offscreen"))
            return QStringLiteral("QOpenGLWidget cannot be composed on the offscreen platform");
        render::OffscreenContext context;
        QString why;
        if (!context.create(&why)) return why;
        context.doneCurrent();
        return QString();
    }();
    return reason;
}

} // namespace

PlotView::PlotView(QWidget* parent) : QWidget(parent) {
    no_gl_reason_ = opengl_unavailable();
    if (no_gl_reason_.isEmpty()) {
        canvas_ = new FigureGlCanvas(this);
    } else {
        // No GL through the window system, but maybe a GPU to draw on: the picture is drawn there
        // and read back.
        QString why_not_egl;
        const int device = FigureEglCanvas::available(&why_not_egl);
        if (why_not_egl.isEmpty())
            canvas_ = new FigureEglCanvas(device, this);
        else
            no_gl_reason_ += QStringLiteral("; ") + why_not_egl;
    }
    if (canvas_) canvas_->widget()->hide();
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(240, 180);
    repaint_timer_.setSingleShot(true);
    repaint_timer_.setInterval(repaint_delay_ms);
    settle_timer_.setSingleShot(true);
    settle_timer_.setInterval(settle_delay_ms);
    connect(&repaint_timer_, &QTimer::timeout, this, &PlotView::refreshFigure);
    slice_timer_.setSingleShot(true);
    slice_timer_.setInterval(0);
    connect(&settle_timer_, &QTimer::timeout, this, &PlotView::settle);
    connect(&slice_timer_, &QTimer::timeout, this, &PlotView::refreshSlice);
}

void PlotView::setFigure(std::shared_ptr<plot::ResultFigure> figure) {
    figure_ = std::move(figure);
    user_moved_ = false;
    stale_ = false;
    range_ = figure_ ? figure_->fullRange() : plot::PlotRange{};
    history_ = {range_};
    history_index_ = 0;
    refreshFigure();
}

void PlotView::replaceFigure(std::shared_ptr<plot::ResultFigure> figure) {
    figure_ = std::move(figure);
    refreshFigure();
}

void PlotView::setBackdrop(QImage image, const plot::PlotRange& range) {
    backdrop_ = std::move(image);
    backdrop_range_ = range;
    update();
}

void PlotView::clearBackdrop() {
    if (backdrop_.isNull()) return;
    backdrop_ = QImage();
    update();
}

plot::PaintOptions PlotView::paintOptions() const {
    plot::PaintOptions o;
    o.stale = stale_;
    o.backdrop = backdrop_;
    o.backdrop_range = backdrop_range_;
    o.background = palette().color(QPalette::Base);
    o.foreground = palette().color(QPalette::Text);
    o.font = font();
    o.branches = branches_;
    return o;
}

QRectF PlotView::plotArea() const {
    if (!figure_) return QRectF(rect());
    return plot::FigurePainter(*figure_, paintOptions()).layout(QRectF(rect()), range_, this).plot;
}

void PlotView::figureChanged() {
    if (!repaint_timer_.isActive()) repaint_timer_.start();
}

void PlotView::followYScale() {
    const plot::AxisRange full = figure_->fullRange().y;
    // The figure's y axis turned log or linear: the ranges keep their values where the new axis can
    // show them (a log axis only above zero), else take the figure's whole y range.
    const auto follow = [&full](plot::PlotRange& r) {
        if (r.y.log == full.log) return;
        r.y.log = full.log;
        if (full.log && !(r.y.from > 0.0 && r.y.to > 0.0)) r.y = full;
    };
    follow(range_);
    follow(press_range_);
    for (auto& h : history_)
        follow(h);
}

void PlotView::refreshFigure() {
    if (figure_) {
        followYScale();
        if (!user_moved_) {
            range_ = figure_->fullRange();
            history_[history_index_] = range_;
        }
        // While the user moves the view the cached picture is stretched; it is rebinned on settling.
        if (drag_ == Drag::None && !settle_timer_.isActive()) {
            figure_->setDarkBackground(palette().color(QPalette::Base).lightness() < 128);
            figure_->setViewport(range_, plotArea().size().toSize());
        }
    }
    refreshSlice();
    update();
}

void PlotView::refreshSlice() {
    if (!figure_) return;
    const std::uint64_t before = figure_->revision();
    if (!figure_->refreshSlice(slice_budget)) slice_timer_.start();
    if (figure_->revision() != before) update();
}

void PlotView::setStale(bool stale) {
    if (stale == stale_) return;
    stale_ = stale;
    update();
}

void PlotView::settle() {
    settle_timer_.stop();
    if (history_[history_index_] == range_) return;
    user_moved_ = true;
    history_.resize(history_index_ + 1);
    history_.push_back(range_);
    history_index_ = history_.size() - 1;
    refreshFigure();
    emit viewRequested(range_);
}

void PlotView::setRange(const plot::PlotRange& range) {
    range_ = range;
    settle();
}

void PlotView::showHistoryEntry() {
    range_ = history_[history_index_];
    // A step through the history is the user's choice of range, also at its start: following the
    // data there would take the range of the figure on screen, which may be a zoom's.
    user_moved_ = true;
    refreshFigure();
    emit viewRequested(range_);
}

void PlotView::back() {
    settle();
    if (!canGoBack()) return;
    --history_index_;
    showHistoryEntry();
}

void PlotView::forward() {
    settle();
    if (!canGoForward()) return;
    ++history_index_;
    showHistoryEntry();
}

void PlotView::resetView() {
    if (!figure_) return;
    // The first range the view showed: the whole study, whatever zoom's figure is on screen now.
    range_ = history_.front();
    settle();
    user_moved_ = false;
}

std::optional<int> PlotView::cudaDevice() const {
    if (!canvas_ || !canvas_->failure().isEmpty()) return -1;
    return canvas_->cudaDevice();
}

QString PlotView::renderPath() const {
    if (!canvas_) return QStringLiteral("QPainter: ") + no_gl_reason_;
    if (branches_ && !branches_->empty())
        return QStringLiteral("QPainter: branches are drawn over the picture");
    if (!canvas_->failure().isEmpty()) return QStringLiteral("QPainter: ") + canvas_->failure();
    if (figure_ && !FigureGlDrawing::supports(*figure_))
        return QStringLiteral("QPainter: two sweep directions are not drawn by OpenGL");
    return canvas_->renderPath(figure_.get());
}

// The GL canvas covers the plot rectangle with the same range, veil and band as the QPainter picture.
void PlotView::syncCanvas() {
    if (!canvas_) return;
    QWidget* widget = canvas_->widget();
    const bool shown = figure_ && canvas_->failure().isEmpty() && FigureGlDrawing::supports(*figure_) &&
                       backdrop_.isNull() && (!branches_ || branches_->empty());
    if (!shown) {
        widget->hide();
        return;
    }
    const QRect area = plotArea().toAlignedRect();
    if (widget->geometry() != area) widget->setGeometry(area);
    const QRect band =
        drag_ == Drag::Band ? QRect(press_pos_, last_pos_).normalized().translated(-area.topLeft()) : QRect();
    canvas_->setContent({figure_, range_, stale_, band});
    widget->setVisible(true);
}

void PlotView::paintEvent(QPaintEvent*) {
    syncCanvas();
    if (const QString path = renderPath(); path != painted_path_) {
        painted_path_ = path;
        emit renderPathChanged(path);
    }
    QPainter p(this);
    if (!figure_) {
        p.fillRect(rect(), palette().color(QPalette::Base));
        return;
    }
    plot::FigurePainter(*figure_, paintOptions()).paint(p, QRectF(rect()), range_);
    if (drag_ == Drag::Band) {
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(60);
        p.setPen(QPen(palette().color(QPalette::Highlight), 1.0, Qt::DashLine));
        p.setBrush(fill);
        p.drawRect(QRect(press_pos_, last_pos_).normalized());
    }
}

void PlotView::resizeEvent(QResizeEvent*) {
    figureChanged();
}

void PlotView::wheelEvent(QWheelEvent* event) {
    if (!figure_) return;
    const QRectF area = plotArea();
    const QPointF pos = event->position();
    if (!area.contains(pos)) return;
    // One wheel notch (120) zooms in by 15 %.
    const double factor = std::pow(0.85, event->angleDelta().y() / 120.0);
    const QPointF centre = plot::FigurePainter::toData(area, range_, pos);
    range_.x = zoom_axis(range_.x, range_.x.to_display(centre.x()), factor);
    range_.y = zoom_axis(range_.y, range_.y.to_display(centre.y()), factor);
    user_moved_ = true;
    settle_timer_.start();
    update();
    event->accept();
}

plot::PlotRange PlotView::shifted(const plot::PlotRange& from, QPointF pixels) const {
    const QRectF area = plotArea();
    plot::PlotRange r = from;
    const double dx = -pixels.x() / area.width() * (from.x.display_to() - from.x.display_from());
    const double dy = pixels.y() / area.height() * (from.y.display_to() - from.y.display_from());
    r.x.from = r.x.from_display(from.x.display_from() + dx);
    r.x.to = r.x.from_display(from.x.display_to() + dx);
    r.y.from = r.y.from_display(from.y.display_from() + dy);
    r.y.to = r.y.from_display(from.y.display_to() + dy);
    return r;
}

void PlotView::mousePressEvent(QMouseEvent* event) {
    if (!figure_) return;
    settle();
    press_pos_ = last_pos_ = event->position().toPoint();
    press_range_ = range_;
    moved_since_press_ = false;
    const bool band = event->button() == Qt::RightButton ||
                      (event->button() == Qt::LeftButton && event->modifiers().testFlag(Qt::ShiftModifier));
    drag_ = band ? Drag::Band : event->button() == Qt::LeftButton ? Drag::Pan : Drag::None;
}

void PlotView::mouseMoveEvent(QMouseEvent* event) {
    if (!figure_) return;
    last_pos_ = event->position().toPoint();
    if ((last_pos_ - press_pos_).manhattanLength() > click_slop_px) moved_since_press_ = true;
    if (drag_ == Drag::Pan && moved_since_press_) {
        user_moved_ = true;
        range_ = shifted(press_range_, QPointF(last_pos_ - press_pos_));
        update();
    } else if (drag_ == Drag::Band) {
        update();
    }
    const QRectF area = plotArea();
    if (!area.contains(event->position())) {
        QToolTip::hideText();
        return;
    }
    const QPointF d = plot::FigurePainter::toData(area, range_, event->position());
    const QString on_branch = branchTextAt(event->position());
    const QString text = on_branch.isEmpty() ? figure_->describe(d.x(), d.y()) : on_branch;
    emit hovered(text);
    // Beside the cursor rather than under it, so it does not hide the cell it describes.
    if (drag_ == Drag::None)
        QToolTip::showText(event->globalPosition().toPoint() + QPoint(14, 18), text, this);
    else
        QToolTip::hideText();
}

void PlotView::mouseReleaseEvent(QMouseEvent* event) {
    if (!figure_ || drag_ == Drag::None) return;
    const Drag drag = drag_;
    drag_ = Drag::None;
    const QRectF area = plotArea();
    if (!moved_since_press_) {
        if (event->button() == Qt::RightButton && area.contains(event->position())) {
            update();
            emit pointMenuRequested(plot::FigurePainter::toData(area, range_, event->position()),
                                    event->globalPosition().toPoint());
            return;
        }
        if (drag == Drag::Pan && area.contains(event->position())) {
            const QPointF d = plot::FigurePainter::toData(area, range_, event->position());
            if (const auto system = figure_->systemAt(d.x(), d.y())) emit systemClicked(*system);
        }
        update();
        return;
    }
    if (drag == Drag::Band) {
        const QRectF band = QRectF(press_pos_, last_pos_).normalized().intersected(area);
        if (band.width() >= 4 && band.height() >= 4) {
            const QPointF a = plot::FigurePainter::toData(area, range_, band.bottomLeft());
            const QPointF b = plot::FigurePainter::toData(area, range_, band.topRight());
            range_.x.from = a.x(), range_.x.to = b.x();
            range_.y.from = a.y(), range_.y.to = b.y();
        }
    }
    settle();
    update();
}

void PlotView::keyPressEvent(QKeyEvent* event) {
    if (event->modifiers().testFlag(Qt::AltModifier) && event->key() == Qt::Key_Left) return back();
    if (event->modifiers().testFlag(Qt::AltModifier) && event->key() == Qt::Key_Right) return forward();
    if (event->key() == Qt::Key_Home) return resetView();
    if (event->key() == Qt::Key_B && event->modifiers() == Qt::NoModifier && figure_) {
        const QPointF cursor = mapFromGlobal(QCursor::pos());
        const QPointF at = plotArea().contains(cursor) ? cursor : QPointF(last_pos_);
        if (plotArea().contains(at))
            return emit continueRequested(plot::FigurePainter::toData(plotArea(), range_, at));
    }
    QWidget::keyPressEvent(event);
}

} // namespace bif::ui

namespace bif::ui {

void PlotView::setBranches(std::shared_ptr<const plot::Overlays> branches) {
    branches_ = std::move(branches);
    update();
}

QString PlotView::branchTextAt(QPointF pixel) const {
    if (!figure_ || !branches_ || branches_->empty()) return QString();
    const plot::OverlayAxes axes{figure_->xLabel(), figure_->yLabel()};
    const auto hit = plot::branch_point_near(plotArea(), range_, axes, *branches_, pixel, branch_hover_px);
    if (!hit) return QString();
    const plot::BranchOverlay& o = (*branches_)[hit->overlay];
    return plot::describe_point(o, o.points[hit->point]);
}

} // namespace bif::ui
