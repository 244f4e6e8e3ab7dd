// Which pixel of a density image a point falls in: the rule that ui/plot/result_figure bins section
// points with, written once so that the host path and the CUDA path (render_kernels.cuh) put every
// point in the same pixel. Compiles as host C++ and through NVRTC.
//
// The image shows the display-space rectangle [x0, x1] x [y0, y1] (log axes in log10 of the value)
// at width x height pixels, row 0 at the top:
//   px = (to_display(x) - x0) * (width / (x1 - x0)),   py = (y1 - to_display(y)) * (height / (y1 - y0)),
// a point with px or py outside [0, width) or [0, height) is not drawn (NaN never is), except that the
// right edge itself (px in [width, width * (1 + 1e-9)]) counts as the last column: the last value of a
// sweep shown edge to edge belongs inside. The pixel is (floor(px), floor(py)).
// Every step is one IEEE double operation (no fused multiply-add to contract), so host and device
// agree bit for bit on linear axes; log axes rely on log10, which may differ by an ulp on the GPU.
#pragma once

#include "bif/config.h"

namespace bif::render {

struct DensityBinning {
    double x0 = 0.0, y1 = 1.0; // display coordinates of the left and top edges
    double sx = 1.0, sy = 1.0; // pixels per display unit along x and y
    int width = 1, height = 1;
    bool log_x = false, log_y = false;
};

// The binning of an image showing data x in [x_from, x_to] and y in [y_from, y_to] (data values, as
// plot::AxisRange holds them) at width x height pixels.
BIF_HD inline DensityBinning make_density_binning(double x_from, double x_to, bool log_x, double y_from,
                                                  double y_to, bool log_y, int width, int height) {
    DensityBinning b;
    b.log_x = log_x;
    b.log_y = log_y;
    const double x0 = log_x ? bif::m::log10(x_from) : x_from, x1 = log_x ? bif::m::log10(x_to) : x_to;
    const double y0 = log_y ? bif::m::log10(y_from) : y_from, y1 = log_y ? bif::m::log10(y_to) : y_to;
    b.x0 = x0;
    b.y1 = y1;
    b.sx = width / (x1 - x0);
    b.sy = height / (y1 - y0);
    b.width = width;
    b.height = height;
    return b;
}

// The fractional column of data value x; outside [0, width) when it is not drawn.
BIF_HD inline double density_column(const DensityBinning& b, double x) {
    double px = ((b.log_x ? bif::m::log10(x) : x) - b.x0) * b.sx;
    if (px >= b.width && px <= b.width * (1.0 + 1e-9)) px = b.width - 0.5;
    return px;
}

// The fractional row (0 at the top) of data value y.
BIF_HD inline double density_row(const DensityBinning& b, double y) {
    return (b.y1 - (b.log_y ? bif::m::log10(y) : y)) * b.sy;
}

// Index row * width + column of the pixel holding (x, y), or -1 when the point is not drawn.
BIF_HD inline long long density_pixel(const DensityBinning& b, double x, double y) {
    const double px = density_column(b, x);
    if (!(px >= 0.0 && px < b.width)) return -1;
    const double py = density_row(b, y);
    if (!(py >= 0.0 && py < b.height)) return -1;
    return static_cast<long long>(py) * b.width + static_cast<long long>(px);
}

} // namespace bif::render
