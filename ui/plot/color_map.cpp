#include "ui/plot/color_map.h"

#include <algorithm>
#include <cmath>

namespace bif::plot {

namespace {

// Nine samples at t = k/8 of the published 256-entry tables (entries 0, 32, 64, ..., 223, 255).
constexpr std::array<QRgb, 9> viridis_samples = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                                                 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725};
constexpr std::array<QRgb, 9> magma_samples = {0x000004, 0x1d1147, 0x51127c, 0x822681, 0xb63679,
                                               0xe65164, 0xfb8861, 0xfec287, 0xfcfdbf};
// Blue to light grey to red, after Moreland's "cool to warm" (2009) end points; the grey middle
// marks zero.
constexpr std::array<QRgb, 5> diverging_samples = {0x3b4cc0, 0x8db0fe, 0xdddddd, 0xf49a7b, 0xb40426};

template <std::size_t N>
QRgb interpolate(const std::array<QRgb, N>& samples, double t) {
    const double position = std::clamp(t, 0.0, 1.0) * (N - 1);
    const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(position), N - 2);
    const double f = position - static_cast<double>(i);
    const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    const QRgb a = samples[i], b = samples[i + 1];
    return qRgb(mix(qRed(a), qRed(b)), mix(qGreen(a), qGreen(b)), mix(qBlue(a), qBlue(b)));
}

} // namespace

ColorMap::ColorMap(ColorMapKind kind) : kind_(kind) {
    for (std::size_t i = 0; i < table_.size(); ++i) {
        const double t = static_cast<double>(i) / 255.0;
        switch (kind) {
        case ColorMapKind::Viridis:
            table_[i] = interpolate(viridis_samples, t);
            break;
        case ColorMapKind::Magma:
            table_[i] = interpolate(magma_samples, t);
            break;
        case ColorMapKind::Diverging:
            table_[i] = interpolate(diverging_samples, t);
            break;
        }
    }
}

QRgb ColorMap::at(double t) const {
    if (!(t > 0.0)) return table_.front(); // also NaN
    if (t >= 1.0) return table_.back();
    return table_[static_cast<std::size_t>(t * 255.0 + 0.5)];
}

namespace {
constexpr std::array<QRgb, 12> categorical = {0xffe69f00, 0xff56b4e9, 0xff009e73, 0xfff0e442,
                                              0xff0072b2, 0xffd55e00, 0xffcc79a7, 0xff8c6bb1,
                                              0xff66c2a5, 0xffb8860b, 0xff1f78b4, 0xffe7298a};
}

QRgb categorical_color(int index) {
    const int n = static_cast<int>(categorical.size());
    return categorical[static_cast<std::size_t>(((index % n) + n) % n)];
}

int categorical_color_count() {
    return static_cast<int>(categorical.size());
}

} // namespace bif::plot
