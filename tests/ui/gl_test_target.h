// An OpenGL 3.3 core context with a framebuffer object to draw into, for tests of ui/render without
// a window. The context comes from EGL's device platform where it gives one (the GPU through
// NVIDIA's EGL on a headless server; Mesa's llvmpipe here), else from Qt's offscreen surface (GLX
// under xvfb-run). BIFSCOPE_GL_TARGET=qt or =egl takes only that one. Where no context can be had
// the program ends with exit code 77, which ctest counts as skipped.
#pragma once

#include "ui/render/egl_device_context.h"
#include "ui/render/framebuffer.h"
#include "ui/render/offscreen_context.h"

#include <QImage>
#include <QSize>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace bif::test {

// Where a GlTarget's context comes from: Any (EGL, then Qt) or only Qt's (for tests whose widgets
// need Qt to give GL too).
enum class GlSource { Any, Qt };

class GlTarget {
  public:
    explicit GlTarget(QSize size, GlSource source = GlSource::Any) {
        const QByteArray only = qgetenv("BIFSCOPE_GL_TARGET");
        std::string why_egl = "not tried", why;
        if (source == GlSource::Any && only != "qt") {
            egl_ = std::make_unique<render::EglDeviceContext>();
            if (egl_->create(-1, &why_egl)) {
                origin_ = egl_->description();
            } else {
                egl_.reset();
            }
        }
        if (!egl_) {
            QString why_qt = "not tried";
            if (only != "egl") {
                qt_ = std::make_unique<render::OffscreenContext>();
                if (!qt_->create(&why_qt)) qt_.reset();
            }
            gl_ = qt_ ? render::current_gl() : nullptr;
            if (!gl_) {
                std::printf("SKIP: no OpenGL 3.3 core context: EGL: %s; Qt: %s (run under xvfb-run)\n",
                            why_egl.c_str(), qPrintable(why_qt));
                std::exit(77);
            }
            origin_ = "Qt offscreen surface: " +
                      std::string(reinterpret_cast<const char*>(gl_->glGetString(GL_RENDERER)));
        } else {
            gl_ = &egl_->gl();
        }
        if (!fbo_.create(*gl_, size, &why)) {
            std::printf("FAIL: %s on %s\n", why.c_str(), origin_.c_str());
            std::exit(1);
        }
    }
    ~GlTarget() {
        fbo_.release();
        doneCurrent();
    }
    render::Gl& gl() { return *gl_; }
    render::Framebuffer& fbo() { return fbo_; }
    // Which context this is (the EGL device and GL renderer, or Qt's).
    const std::string& origin() const { return origin_; }
    bool onEgl() const { return egl_ != nullptr; }
    // The CUDA device the EGL device says it is (EGL_NV_device_cuda), else -1.
    int cudaDevice() const { return egl_ ? egl_->cudaDevice() : -1; }
    void doneCurrent() {
        if (egl_) egl_->doneCurrent();
        if (qt_) qt_->doneCurrent();
    }
    // The picture drawn so far, top row first, straight (not premultiplied) ARGB32.
    QImage read() { return fbo_.read(); }

  private:
    std::unique_ptr<render::EglDeviceContext> egl_;
    std::unique_ptr<render::OffscreenContext> qt_;
    render::Gl* gl_ = nullptr;
    render::Framebuffer fbo_;
    std::string origin_;
};

} // namespace bif::test
