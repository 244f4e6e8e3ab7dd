#include "ui/render/lut_texture.h"

#include <cstdint>

namespace bif::render {

LutTexture::~LutTexture() {
    release();
}

void LutTexture::set(Gl& gl, const std::vector<QRgb>& colours) {
    gl_ = &gl;
    if (!texture_) gl.glGenTextures(1, &texture_);
    std::vector<std::uint8_t> rgba;
    rgba.reserve(colours.size() * 4);
    for (QRgb c : colours)
        rgba.insert(rgba.end(), {std::uint8_t(qRed(c)), std::uint8_t(qGreen(c)), std::uint8_t(qBlue(c)),
                                 std::uint8_t(qAlpha(c))});
    size_ = static_cast<int>(colours.size());
    gl.glBindTexture(GL_TEXTURE_1D, texture_);
    gl.glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl.glTexImage1D(GL_TEXTURE_1D, 0, GL_RGBA8, size_, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    gl.glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl.glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl.glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAX_LEVEL, 0);
}

void LutTexture::release() {
    if (texture_ && gl_) gl_->glDeleteTextures(1, &texture_);
    texture_ = 0;
    size_ = 0;
}

void LutTexture::bind(Gl& gl, int unit) const {
    gl.glActiveTexture(GL_TEXTURE0 + unit);
    gl.glBindTexture(GL_TEXTURE_1D, texture_);
}

Rgba to_rgba(QRgb c) {
    return {qRed(c) / 255.0f, qGreen(c) / 255.0f, qBlue(c) / 255.0f, qAlpha(c) / 255.0f};
}

} // namespace bif::render
