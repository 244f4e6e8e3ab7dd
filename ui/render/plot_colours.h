// The layers' colour tables taken from ui/plot, so that a GL picture has the colours of the
// QPainter figure of the same data.
#pragma once

#include "ui/plot/map_colouring.h"
#include "ui/render/map_layer.h"

#include <QRgb>
#include <array>
#include <vector>

namespace bif::render {

// A 256-entry ramp from a ColorKey's ramp (bottom to top) or a ColorMap.
std::array<QRgb, 256> ramp_of(const std::vector<QRgb>& key_ramp);
std::array<QRgb, 256> ramp_of(const plot::ColorMap& map);

// Sets `layer` to colour cells as `colouring` does (settled): its ramp and range or its categories,
// and which statuses count as failed.
void colour_like(Gl& gl, MapLayer& layer, const plot::MapColouring& colouring);

} // namespace bif::render
