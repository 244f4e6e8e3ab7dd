#include "ui/views/figure_egl_canvas.h"

#include <QPainter>
#include <string>

namespace bif::ui {

int FigureEglCanvas::available(QString* why) {
    struct Probe {
        int device = -1;
        QString why;
    };
    static const Probe probe = [] {
        Probe result;
        const QByteArray allowed = qgetenv("BIFSCOPE_EGL_CANVAS");
        if (allowed == "0") {
            result.why = QStringLiteral("EGL canvas turned off by BIFSCOPE_EGL_CANVAS=0");
            return result;
        }
        render::EglDeviceContext egl;
        std::string reason;
        if (!egl.create(-1, &reason)) {
            result.why = QStringLiteral("no EGL device: ") + QString::fromStdString(reason);
            return result;
        }
        result.device = egl.cudaDevice();
        if (result.device < 0 && allowed != "1") result.why = QStringLiteral("no EGL device on a CUDA GPU");
        egl.destroy();
        return result;
    }();
    if (why) *why = probe.why;
    return probe.device;
}

FigureEglCanvas::FigureEglCanvas(int cuda_device, QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_OpaquePaintEvent);
    std::string why;
    if (!egl_.create(cuda_device, &why)) {
        failure_ = QString::fromStdString(why);
        return;
    }
    if (!drawing_.initialize(&egl_.gl())) failure_ = drawing_.failure();
    egl_.doneCurrent();
}

FigureEglCanvas::~FigureEglCanvas() {
    if (!egl_.valid() || !egl_.makeCurrent()) return;
    framebuffer_.release();
    drawing_.release();
    egl_.destroy();
}

QString FigureEglCanvas::renderPath(const plot::ResultFigure* figure) const {
    return QStringLiteral("OpenGL 3.3, EGL offscreen (%1)").arg(drawing_.uploadPath(figure));
}

void FigureEglCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QColor base = palette().color(QPalette::Base);
    const qreal ratio = devicePixelRatioF();
    const QSize pixels(static_cast<int>(width() * ratio), static_cast<int>(height() * ratio));
    if (!failure_.isEmpty() || pixels.isEmpty() || !egl_.makeCurrent()) {
        p.fillRect(rect(), base);
        return;
    }
    std::string why;
    if (framebuffer_.size() != pixels) {
        framebuffer_.release();
        if (!framebuffer_.create(egl_.gl(), pixels, &why)) {
            failure_ = QStringLiteral("no framebuffer of %1 x %2: %3")
                           .arg(pixels.width())
                           .arg(pixels.height())
                           .arg(QString::fromStdString(why));
            egl_.doneCurrent();
            if (parentWidget()) parentWidget()->update(); // the plot view paints the figure itself
            return;
        }
    }
    framebuffer_.bind();
    const bool changed = drawing_.draw(content_.figure.get(), content_.view, pixels, base);
    QImage picture = framebuffer_.read();
    egl_.doneCurrent();
    picture.setDevicePixelRatio(ratio);
    p.drawImage(QPoint(0, 0), picture);
    paint_canvas_overlay(p, rect(), palette(), content_.stale, content_.band);
    if (changed && parentWidget()) parentWidget()->update();
}

} // namespace bif::ui
