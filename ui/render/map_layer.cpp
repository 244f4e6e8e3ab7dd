#include "ui/render/map_layer.h"

namespace bif::render {

void MapLayer::resize(Gl& gl, QSize size) {
    size_ = size;
    const auto cells = static_cast<std::size_t>(size.width()) * size.height();
    values_.reserve(gl, cells);
    statuses_.reserve(gl, cells);
}

void MapLayer::setCells(Gl& gl, const float* values, const std::uint8_t* statuses) {
    const auto cells = static_cast<std::size_t>(size_.width()) * size_.height();
    values_.upload(gl, values, cells);
    statuses_.upload(gl, statuses, cells);
}

void MapLayer::setScalar(Gl& gl, const std::array<QRgb, 256>& ramp, double from, double to) {
    categorical_ = false;
    from_ = static_cast<float>(from), to_ = static_cast<float>(to);
    lut_.set(gl, std::vector<QRgb>(ramp.begin(), ramp.end()));
}

void MapLayer::setCategorical(Gl& gl, const std::vector<QRgb>& palette) {
    categorical_ = true;
    lut_.set(gl, palette);
}

void MapLayer::setFailed(const std::bitset<256>& failed_statuses, QRgb colour) {
    failed_ = failed_statuses;
    failed_colour_ = colour;
}

void MapLayer::release() {
    values_.release();
    statuses_.release();
    lut_.release();
}

} // namespace bif::render
