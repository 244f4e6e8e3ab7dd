#include "ui/views/figure_gl_canvas.h"

#include <QOpenGLContext>
#include <QPainter>

namespace bif::ui {

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

QString FigureGlCanvas::renderPath(const plot::ResultFigure* figure) const {
    return QStringLiteral("OpenGL 3.3 (%1)").arg(drawing_.uploadPath(figure));
}

void FigureGlCanvas::initializeGL() {
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &FigureGlCanvas::releaseGl);
    drawing_.initialize();
    // The status bar reads the path at the plot view's paint.
    if (parentWidget()) parentWidget()->update();
}

void FigureGlCanvas::releaseGl() {
    drawing_.release();
}

void FigureGlCanvas::paintGL() {
    QPainter p(this);
    p.beginNativePainting();
    const qreal ratio = devicePixelRatioF();
    const QSize pixels(static_cast<int>(width() * ratio), static_cast<int>(height() * ratio));
    if (drawing_.draw(content_.figure.get(), content_.view, pixels, palette().color(QPalette::Base)) &&
        parentWidget())
        parentWidget()->update();
    p.endNativePainting();
    paint_canvas_overlay(p, rect(), palette(), content_.stale, content_.band);
}

} // namespace bif::ui
