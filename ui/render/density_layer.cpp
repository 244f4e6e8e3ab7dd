#include "ui/render/density_layer.h"

#include <vector>

namespace bif::render {

void DensityLayer::resize(Gl& gl, QSize size) {
    size_ = size;
    counts_.reserve(gl, static_cast<std::size_t>(size.width()) * size.height());
}

void DensityLayer::setCounts(Gl& gl, const std::uint32_t* counts, std::uint32_t most) {
    counts_.upload(gl, counts, static_cast<std::size_t>(size_.width()) * size_.height());
    most_ = most;
}

void DensityLayer::setRamp(Gl& gl, const std::array<QRgb, 256>& ramp) {
    ramp_.set(gl, std::vector<QRgb>(ramp.begin(), ramp.end()));
}

void DensityLayer::release() {
    counts_.release();
    ramp_.release();
}

} // namespace bif::render
