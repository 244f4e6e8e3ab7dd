// A tabulated function: XPPAUT's `table` (values at equally spaced points, linearly interpolated).
//
// The lookup is XPPAUT 6.11's (tabular.c, lookup()): the segment is (int)((x-xlo)/dx), truncated
// toward zero, and outside [xlo, xhi] the end segments are extended linearly. The generated code
// (engine/codegen) writes the same arithmetic, so host and device agree with it.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

namespace bif::sym {

struct Table {
    double xlo = 0.0;
    double xhi = 1.0;
    std::vector<double> y; // at xlo + k dx, k = 0 .. n-1; n >= 2

    double dx() const { return (xhi - xlo) / static_cast<double>(y.size() - 1); }
    bool operator==(const Table&) const = default;
};

// The segment index XPPAUT computes, -1 below the first segment and n-1 above the last (so that the
// callers extend the end segments); NaN gives -2.
inline long table_segment(const Table& table, double x) {
    const double s = (x - table.xlo) / table.dx();
    if (std::isnan(s)) return -2;
    const auto n = static_cast<long>(table.y.size());
    if (s <= -1.0) return -1; // (int) of s in (-1, 0) is 0: the first segment
    if (s >= double(n - 1)) return n - 1;
    return static_cast<long>(s); // truncation, as XPPAUT's (int)
}

// The interpolated value: y1 + (y2-y1)(x-x1)/dx inside, the end segments extended outside.
inline double table_value(const Table& table, double x) {
    const long n = static_cast<long>(table.y.size());
    const long i = table_segment(table, x);
    const double dx = table.dx();
    const std::vector<double>& y = table.y;
    if (i == -2) return std::numeric_limits<double>::quiet_NaN();
    if (i >= 0 && i + 1 < n) return y[i] + (y[i + 1] - y[i]) * (x - (dx * double(i) + table.xlo)) / dx;
    if (i < 0) return y[0] + (y[1] - y[0]) * (x - table.xlo) / dx;
    return y[n - 1] + (y[n - 1] - y[n - 2]) * (x - table.xhi) / dx;
}

// d/dx of table_value: the slope of the segment in use (piecewise constant).
inline double table_slope(const Table& table, double x) {
    const long n = static_cast<long>(table.y.size());
    const long i = table_segment(table, x);
    const std::vector<double>& y = table.y;
    if (i == -2) return std::numeric_limits<double>::quiet_NaN();
    if (i < 0) return (y[1] - y[0]) / table.dx();
    if (i + 1 >= n) return (y[n - 1] - y[n - 2]) / table.dx();
    return (y[i + 1] - y[i]) / table.dx();
}

} // namespace bif::sym
