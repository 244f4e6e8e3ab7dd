// Colour maps for result images: perceptually uniform sequential maps (viridis, magma), a diverging
// map centred on zero, and a categorical palette for periods and basin labels.
//
// Viridis and magma are defined by van der Walt and Smith (matplotlib, 2015) as 256-entry tables
// built in CAM02-UCS. Here each is rebuilt from nine samples of its published table at t = 0, 1/8,
// ..., 1, interpolated linearly in sRGB between them: the lightness stays monotonic and the error
// against the full table is a few units of 255, below what a density picture can show.
#pragma once

#include <QColor>
#include <QRgb>
#include <array>

namespace bif::plot {

enum class ColorMapKind { Viridis, Magma, Diverging };

class ColorMap {
  public:
    explicit ColorMap(ColorMapKind kind = ColorMapKind::Viridis);
    ColorMapKind kind() const { return kind_; }
    // t in [0, 1] (clamped); a lookup into a 256-entry table.
    QRgb at(double t) const;

  private:
    ColorMapKind kind_;
    std::array<QRgb, 256> table_{};
};

// Readable on white and on near-black backgrounds: the Okabe-Ito colours without black, then
// further hues of medium lightness. Index wraps around.
QRgb categorical_color(int index);
int categorical_color_count();

// Cells and points of systems that failed numerically (any study::is_failure status).
inline constexpr QRgb failed_color = 0xff7f7f7f;
// "No period found" (period 0) and "no attractor reached" (basin label -1).
inline constexpr QRgb none_found_color = 0xffe6e6e6;

} // namespace bif::plot
