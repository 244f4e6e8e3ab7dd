// A rectangle of data space: what a figure shows along x and y, in the data's own values. Log axes
// are drawn uniformly in log10 of the value; `to_display` gives that coordinate.
#pragma once

#include <cmath>

namespace bif::plot {

struct AxisRange {
    double from = 0.0;
    double to = 1.0;
    bool log = false;

    double to_display(double v) const { return log ? std::log10(v) : v; }
    double from_display(double d) const { return log ? std::pow(10.0, d) : d; }
    double display_from() const { return to_display(from); }
    double display_to() const { return to_display(to); }
    bool operator==(const AxisRange&) const = default;
};

struct PlotRange {
    AxisRange x;
    AxisRange y;
    bool operator==(const PlotRange&) const = default;
    // Whether both axes have the same scale (linear or log) as `other`'s: a picture binned for one
    // range is drawn into a view of the other only then (just after a log toggle it is not).
    bool same_scales(const PlotRange& other) const { return x.log == other.x.log && y.log == other.y.log; }
};

} // namespace bif::plot
