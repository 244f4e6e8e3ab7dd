// How the values of one map quantity become cell colours, kept up to date as blocks arrive: the
// value range of a continuous quantity, the categories present, whether any system failed.
//
// A picture is painted with the range fixed by settle(); values that arrive later and fall inside it
// are painted with the same colours, so only their cells need painting. A value outside it makes
// include() answer true: the whole map must be recoloured with the wider range.
#pragma once

#include "bif/render/map_summary.h"
#include "engine/study/result.h"
#include "ui/plot/color_map.h"

#include <QRgb>
#include <QString>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace bif::plot {

struct ColorKey;

// Systems that escaped beyond the solver's bound (the basins' attractor at infinity): near-black,
// apart from the failed grey, the "none" light grey and the palettes' colours.
inline constexpr QRgb escape_color = 0xff141414;

class MapColouring {
  public:
    static constexpr int most_categories = 1024;

    // `name`: the quantity; `status_view`: colour by the systems' status instead.
    MapColouring(QString name, bool status_view);

    // Notes one received system; true when the picture painted since settle() cannot show it.
    bool include(double value, study::SystemStatus status);
    // Notes every cell of a map summarised on the GPU (engine/cuda/device_map.h) as include() would
    // note each; the same answer.
    bool include(const render::MapSummary& summary);
    // Fixes the colours from what was included so far.
    void settle();
    bool settled() const { return settled_; }

    QRgb colour(double value, study::SystemStatus status) const {
        if (const QRgb c = status_colour_[static_cast<std::uint8_t>(status)]) return c;
        if (!std::isfinite(value)) return failed_color;
        if (categorical_)
            return category_colours_[std::clamp<long>(std::lround(value), -1, most_categories - 1) + 1];
        return map_.at((value - from_) / (to_ - from_));
    }
    ColorKey key() const;

  private:
    QRgb categoryColour(int v) const;

    QString name_;
    bool status_view_, categorical_, diverging_, labels_;
    ColorMap map_;
    double lo_, hi_;               // of the values included
    double from_ = 0.0, to_ = 1.0; // what the colours span since settle()
    bool settled_ = false;
    std::vector<char> present_; // categories -1 .. most_categories - 1
    bool any_failed_ = false;
    bool any_escaped_ = false;
    // Painting a 4096^2 map calls colour() 16 million times: tables, not branches. A status's own
    // colour (failed grey, escape), or 0 where the value decides.
    std::array<QRgb, 256> status_colour_{};
    std::vector<QRgb> category_colours_;
};

} // namespace bif::plot
