#include "ui/render/framebuffer.h"

#include <cstring>

namespace bif::render {

Framebuffer::~Framebuffer() {
    release();
}

bool Framebuffer::create(Gl& gl, QSize size, std::string* why) {
    release();
    gl_ = &gl;
    size_ = size;
    gl.glGenRenderbuffers(1, &colour_);
    gl.glBindRenderbuffer(GL_RENDERBUFFER, colour_);
    gl.glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, size.width(), size.height());
    gl.glBindRenderbuffer(GL_RENDERBUFFER, 0);
    gl.glGenFramebuffers(1, &framebuffer_);
    gl.glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    gl.glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    if (const GLenum status = gl.glCheckFramebufferStatus(GL_FRAMEBUFFER);
        status != GL_FRAMEBUFFER_COMPLETE) {
        if (why) *why = "framebuffer incomplete (status 0x" + QString::number(status, 16).toStdString() + ")";
        release();
        return false;
    }
    return true;
}

void Framebuffer::bind() {
    if (gl_) gl_->glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
}

void Framebuffer::release() {
    if (gl_ && framebuffer_) {
        gl_->glBindFramebuffer(GL_FRAMEBUFFER, 0);
        gl_->glDeleteFramebuffers(1, &framebuffer_);
        gl_->glDeleteRenderbuffers(1, &colour_);
    }
    framebuffer_ = colour_ = 0;
    gl_ = nullptr;
}

std::vector<std::uint8_t> Framebuffer::readRgba() {
    const std::size_t row = std::size_t(size_.width()) * 4;
    std::vector<std::uint8_t> pixels(row * size_.height());
    if (!gl_ || pixels.empty()) return pixels;
    bind();
    gl_->glFinish();
    gl_->glPixelStorei(GL_PACK_ALIGNMENT, 1);
    gl_->glReadPixels(0, 0, size_.width(), size_.height(), GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    // GL's rows run from the bottom.
    std::vector<std::uint8_t> swap(row);
    for (int y = 0; y < size_.height() / 2; ++y) {
        std::uint8_t* top = pixels.data() + y * row;
        std::uint8_t* bottom = pixels.data() + (size_.height() - 1 - y) * row;
        std::memcpy(swap.data(), top, row);
        std::memcpy(top, bottom, row);
        std::memcpy(bottom, swap.data(), row);
    }
    return pixels;
}

QImage Framebuffer::read() {
    const std::vector<std::uint8_t> pixels = readRgba();
    if (pixels.empty()) return {};
    const QImage view(pixels.data(), size_.width(), size_.height(), size_.width() * 4,
                      QImage::Format_RGBA8888_Premultiplied);
    return view.convertToFormat(QImage::Format_ARGB32); // a deep copy
}

} // namespace bif::render
