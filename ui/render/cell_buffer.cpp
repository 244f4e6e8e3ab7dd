#include "ui/render/cell_buffer.h"

#include <algorithm>
#include <atomic>

namespace bif::render {

namespace {

std::atomic<std::uint64_t> storages_made{0};

} // namespace

CellBuffer::~CellBuffer() {
    release();
}

void CellBuffer::reserve(Gl& gl, std::size_t cells) {
    gl_ = &gl;
    if (!buffer_) {
        gl.glGenBuffers(1, &buffer_);
        gl.glGenTextures(1, &texture_);
    }
    if (cells <= capacity_ && capacity_ > 0) return;
    capacity_ = std::max<std::size_t>(cells, 1);
    storage_ = ++storages_made;
    gl.glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
    gl.glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(capacity_ * cell_bytes_), nullptr,
                    GL_DYNAMIC_DRAW);
    gl.glBindTexture(GL_TEXTURE_BUFFER, texture_);
    gl.glTexBuffer(GL_TEXTURE_BUFFER, format_, buffer_);
    gl.glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void CellBuffer::upload(Gl& gl, const void* data, std::size_t cells) {
    reserve(gl, cells);
    gl.glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
    gl.glBufferSubData(GL_TEXTURE_BUFFER, 0, static_cast<GLsizeiptr>(cells * cell_bytes_), data);
    gl.glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void CellBuffer::release() {
    if (gl_ && buffer_) {
        gl_->glDeleteTextures(1, &texture_);
        gl_->glDeleteBuffers(1, &buffer_);
    }
    buffer_ = texture_ = 0;
    capacity_ = 0;
    storage_ = 0;
}

void CellBuffer::bind(Gl& gl, int unit) const {
    gl.glActiveTexture(GL_TEXTURE0 + unit);
    gl.glBindTexture(GL_TEXTURE_BUFFER, texture_);
}

} // namespace bif::render
