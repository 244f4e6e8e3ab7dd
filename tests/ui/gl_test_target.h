// An OpenGL 3.3 core context on an offscreen surface with a framebuffer object to draw into, for
// tests of ui/render without a window. Where no such context can be had (Qt's offscreen platform
// without an X server) the program ends with exit code 77, which ctest counts as skipped.
#pragma once

#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QSize>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace bif::test {

class GlTarget {
  public:
    explicit GlTarget(QSize size) {
        QSurfaceFormat format;
        format.setVersion(3, 3);
        format.setProfile(QSurfaceFormat::CoreProfile);
        context_.setFormat(format);
        surface_.setFormat(format);
        surface_.create();
        if (!context_.create() || !context_.makeCurrent(&surface_) ||
            context_.format().version() < qMakePair(3, 3)) {
            std::printf("SKIP: no OpenGL 3.3 core context on this platform (run under xvfb-run)\n");
            std::exit(77);
        }
        fbo_ = std::make_unique<QOpenGLFramebufferObject>(size);
        fbo_->bind();
    }
    ~GlTarget() {
        fbo_.reset();
        context_.doneCurrent();
    }
    QOpenGLContext& context() { return context_; }
    QOpenGLFramebufferObject& fbo() { return *fbo_; }
    // The picture drawn so far, top row first, straight (not premultiplied) ARGB32.
    QImage read() { return fbo_->toImage(true).convertToFormat(QImage::Format_ARGB32); }

  private:
    QOpenGLContext context_;
    QOffscreenSurface surface_;
    std::unique_ptr<QOpenGLFramebufferObject> fbo_;
};

} // namespace bif::test
