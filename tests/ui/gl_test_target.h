// An OpenGL 3.3 core context on an offscreen surface with a framebuffer object to draw into, for
// tests of ui/render without a window. Where no such context can be had (Qt's offscreen platform
// without an X server) the program ends with exit code 77, which ctest counts as skipped.
#pragma once

#include "ui/render/offscreen_context.h"

#include <QImage>
#include <QOpenGLFramebufferObject>
#include <QSize>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace bif::test {

class GlTarget {
  public:
    explicit GlTarget(QSize size) {
        QString why;
        if (!context_.create(&why)) {
            std::printf("SKIP: %s (run under xvfb-run)\n", qPrintable(why));
            std::exit(77);
        }
        fbo_ = std::make_unique<QOpenGLFramebufferObject>(size);
        fbo_->bind();
    }
    ~GlTarget() {
        fbo_.reset();
        context_.doneCurrent();
    }
    QOpenGLContext& context() { return context_.context(); }
    QOpenGLFramebufferObject& fbo() { return *fbo_; }
    // The picture drawn so far, top row first, straight (not premultiplied) ARGB32.
    QImage read() { return fbo_->toImage(true).convertToFormat(QImage::Format_ARGB32); }

  private:
    render::OffscreenContext context_;
    std::unique_ptr<QOpenGLFramebufferObject> fbo_;
};

} // namespace bif::test
