// A framebuffer object with one RGBA8 colour renderbuffer, to draw into without a window and read
// back: what the tests and benchmarks draw into on any context (EGL's, or Qt's offscreen one).
#pragma once

#include "ui/render/gl_types.h"

#include <QImage>
#include <QSize>
#include <cstdint>
#include <string>
#include <vector>

namespace bif::render {

class Framebuffer {
  public:
    Framebuffer() = default;
    Framebuffer(const Framebuffer&) = delete;
    Framebuffer& operator=(const Framebuffer&) = delete;
    ~Framebuffer();

    // Creates the framebuffer in the current context and binds it; false with the reason.
    bool create(Gl& gl, QSize size, std::string* why = nullptr);
    void bind();
    // Frees it while its context is current.
    void release();

    QSize size() const { return size_; }
    // The pixels drawn so far as R, G, B, A bytes, top row first.
    std::vector<std::uint8_t> readRgba();
    // The same as an image of straight (not premultiplied) ARGB32, taking the framebuffer's
    // contents as premultiplied, as Qt does.
    QImage read();

  private:
    Gl* gl_ = nullptr;
    GLuint framebuffer_ = 0, colour_ = 0;
    QSize size_;
};

} // namespace bif::render
