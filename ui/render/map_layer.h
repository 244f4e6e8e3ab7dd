// A map or basin image: one float value and one status byte (study::SystemStatus) per grid cell,
// width*height of each (row 0 at the bottom: cell (i, j) is grid point i along x, j along y).
// Coloured as ui/plot/map_colouring does it:
//   failed status (per a 256-entry table) or a non-finite value  -> the failed colour;
//   status no_system (no system computed there yet)              -> transparent;
//   categorical: palette[clamp(round(v), -1, n - 2) + 1];  scalar: ramp[t*255 + 0.5], t = (v-from)/(to-from).
// The values and statuses live in GL buffers that the CUDA path can write; setCells() is the host path.
#pragma once

#include "ui/render/cell_buffer.h"
#include "ui/render/lut_texture.h"

#include <QRgb>
#include <QSize>
#include <array>
#include <bitset>
#include <cstdint>
#include <vector>

namespace bif::render {

// A status byte no study::SystemStatus uses: the cell has no result yet.
inline constexpr std::uint8_t no_system = 0xff;

class MapLayer {
  public:
    MapLayer() : values_(GL_R32F, sizeof(float)), statuses_(GL_R8UI, sizeof(std::uint8_t)) {}

    void resize(Gl& gl, QSize size);
    // Host path: width*height values and statuses.
    void setCells(Gl& gl, const float* values, const std::uint8_t* statuses);
    GLuint valuesBuffer() const { return values_.buffer(); }
    GLuint statusBuffer() const { return statuses_.buffer(); }

    // A continuous quantity: `ramp` spans [from, to].
    void setScalar(Gl& gl, const std::array<QRgb, 256>& ramp, double from, double to);
    // Categories: palette[0] is the value -1, palette[k] the value k - 1.
    void setCategorical(Gl& gl, const std::vector<QRgb>& palette);
    void setFailed(const std::bitset<256>& failed_statuses, QRgb colour);
    void release();

    QSize size() const { return size_; }
    bool categorical() const { return categorical_; }
    float from() const { return from_; }
    float to() const { return to_; }
    const std::bitset<256>& failedStatuses() const { return failed_; }
    QRgb failedColour() const { return failed_colour_; }
    const CellBuffer& values() const { return values_; }
    const CellBuffer& statuses() const { return statuses_; }
    const LutTexture& lut() const { return lut_; }

  private:
    CellBuffer values_, statuses_;
    LutTexture lut_;
    QSize size_;
    bool categorical_ = false;
    float from_ = 0.0f, to_ = 1.0f;
    std::bitset<256> failed_;
    QRgb failed_colour_ = 0xff7f7f7f;
};

} // namespace bif::render
