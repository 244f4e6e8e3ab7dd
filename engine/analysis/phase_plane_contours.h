// Zero contours of a function sampled on a rectangular grid, traced by marching squares and joined
// into polylines (the nullclines of a phase plane).
//
// Each cell whose corners change sign (a value >= 0 counts as positive) contributes one or two
// segments between the points where its edges cross zero, found by linear interpolation along the
// edge. The two ambiguous cases (opposite corners of equal sign) are resolved by the mean of the
// four corners, the cell's bilinear value at its centre. A cell with a non-finite corner
// contributes nothing. Segments that share an edge crossing are joined, so each polyline is a
// connected piece of the contour: closed (first point == last point) or ending at the grid's
// border or at a non-finite cell.
#pragma once

#include <cstddef>
#include <vector>

namespace bif::analysis {

struct PlanePoint {
    double x = 0.0, y = 0.0;
};

using Polyline = std::vector<PlanePoint>;

struct PlaneWindow {
    double x_from = -1.0, x_to = 1.0;
    double y_from = -1.0, y_to = 1.0;
};

// nx x ny samples over a window, row-major from the bottom row: value(i, j) at
// x = x_from + i (x_to - x_from) / (nx - 1), y = y_from + j (y_to - y_from) / (ny - 1).
struct SampledGrid {
    int nx = 0, ny = 0;
    PlaneWindow window;
    std::vector<double> values;

    double x_at(int i) const { return window.x_from + (window.x_to - window.x_from) * i / (nx - 1); }
    double y_at(int j) const { return window.y_from + (window.y_to - window.y_from) * j / (ny - 1); }
    double value(int i, int j) const {
        return values[static_cast<std::size_t>(j) * static_cast<std::size_t>(nx) +
                      static_cast<std::size_t>(i)];
    }
};

// The zero contours of the grid (nx, ny >= 2, values.size() == nx * ny).
std::vector<Polyline> zero_contours(const SampledGrid& grid);

} // namespace bif::analysis
