// A colour table as a 1-D RGBA8 texture, read with texelFetch (no filtering): the 256-entry ramps
// of ui/plot/color_map and the categorical palettes, so that GL pictures take the very colours the
// QPainter figures take.
#pragma once

#include "ui/render/gl_types.h"

#include <QRgb>
#include <vector>

namespace bif::render {

class LutTexture {
  public:
    LutTexture() = default;
    LutTexture(const LutTexture&) = delete;
    LutTexture& operator=(const LutTexture&) = delete;
    ~LutTexture();

    // (Re)fills the table; creates the texture on first use. Needs a current context.
    void set(Gl& gl, const std::vector<QRgb>& colours);
    // Frees the texture while its context is current.
    void release();
    void bind(Gl& gl, int unit) const;
    int size() const { return size_; }

  private:
    Gl* gl_ = nullptr;
    GLuint texture_ = 0;
    int size_ = 0;
};

// Straight RGBA of a QRgb as the shaders output it, components in [0, 1].
struct Rgba {
    float r, g, b, a;
};
Rgba to_rgba(QRgb c);

} // namespace bif::render
