// One value per cell of a layer, width*height of them in rows, held in a GL buffer object and read
// by the shaders through a buffer texture (texelFetch by index). The buffer is what the CUDA path
// registers and writes into; the host path uploads into the same buffer with glBufferSubData.
#pragma once

#include "ui/render/gl_types.h"

#include <cstddef>
#include <cstdint>

namespace bif::render {

class CellBuffer {
  public:
    // `format`: the buffer texture's internal format (GL_R32UI, GL_R32F, GL_R8UI); `cell_bytes` its size.
    CellBuffer(GLenum format, std::size_t cell_bytes) : format_(format), cell_bytes_(cell_bytes) {}
    CellBuffer(const CellBuffer&) = delete;
    CellBuffer& operator=(const CellBuffer&) = delete;
    ~CellBuffer();

    // Makes room for `cells` cells (contents undefined); keeps the buffer when it is large enough.
    void reserve(Gl& gl, std::size_t cells);
    // Copies `cells` cells from host memory to the start of the buffer.
    void upload(Gl& gl, const void* data, std::size_t cells);
    void release();
    void bind(Gl& gl, int unit) const;

    GLuint buffer() const { return buffer_; }
    std::size_t capacity() const { return capacity_; }
    // Which storage the buffer has: a number no other storage of any CellBuffer had, new with each
    // allocation (0: none). GL reuses a deleted buffer's name, so a name and size do not tell a
    // registration with CUDA (ui/render/cuda_render_path.h) that it is stale; this does.
    std::uint64_t storage() const { return storage_; }

  private:
    GLenum format_;
    std::size_t cell_bytes_;
    Gl* gl_ = nullptr;
    GLuint buffer_ = 0, texture_ = 0;
    std::size_t capacity_ = 0;
    std::uint64_t storage_ = 0;
};

} // namespace bif::render
