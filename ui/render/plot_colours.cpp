#include "ui/render/plot_colours.h"

#include "ui/plot/result_figure.h"

#include <algorithm>

namespace bif::render {

std::array<QRgb, 256> ramp_of(const std::vector<QRgb>& key_ramp) {
    std::array<QRgb, 256> ramp{};
    if (key_ramp.empty()) return ramp;
    for (std::size_t i = 0; i < ramp.size(); ++i)
        ramp[i] = key_ramp[std::min(key_ramp.size() - 1, i * key_ramp.size() / ramp.size())];
    return ramp;
}

std::array<QRgb, 256> ramp_of(const plot::ColorMap& map) {
    std::array<QRgb, 256> ramp{};
    for (std::size_t i = 0; i < ramp.size(); ++i)
        ramp[i] = map.at(static_cast<double>(i) / 255.0);
    return ramp;
}

void colour_like(Gl& gl, MapLayer& layer, const plot::MapColouring& colouring) {
    const plot::ColorKey key = colouring.key();
    if (key.categorical) {
        std::vector<QRgb> palette;
        for (int v = -1; v < plot::MapColouring::most_categories; ++v)
            palette.push_back(colouring.colour(v, study::SystemStatus::Ok));
        layer.setCategorical(gl, palette);
    } else {
        layer.setScalar(gl, ramp_of(key.ramp), key.from, key.to);
    }
    // A status is failed where it alone changes a cell's colour (in the status view none does).
    std::bitset<256> failed;
    const QRgb ok = colouring.colour(0.0, study::SystemStatus::Ok);
    for (int s = 0; s < 256; ++s)
        failed[s] = colouring.colour(0.0, study::SystemStatus(s)) != ok;
    layer.setFailed(failed, plot::failed_color);
}

} // namespace bif::render
