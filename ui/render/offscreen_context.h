// An OpenGL 3.3 core context made current on an offscreen surface: what the renderer needs when
// there is no widget (tests, benchmarks, the probe of whether a platform can give OpenGL at all).
#pragma once

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QString>

namespace bif::render {

class OffscreenContext {
  public:
    // Creates the context and makes it current; false with a one-line reason when the platform
    // gives no context, or only one older than 3.3.
    bool create(QString* why = nullptr);
    void doneCurrent() { context_.doneCurrent(); }
    QOpenGLContext& context() { return context_; }

  private:
    QOpenGLContext context_;
    QOffscreenSurface surface_;
};

} // namespace bif::render
