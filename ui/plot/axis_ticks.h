// Tick positions for figure axes: "nice" values (1, 2 or 5 times a power of ten) on linear axes,
// decades (and 2, 5 within them when few decades show) on log axes, and their labels.
#pragma once

#include <QString>
#include <vector>

namespace bif::plot {

struct Tick {
    double value = 0.0; // in data values (not log10)
    QString label;
};

// At most about `max_count` ticks inside [from, to] (either order), step 1, 2 or 5 x 10^k.
std::vector<Tick> linear_ticks(double from, double to, int max_count);
// Ticks at powers of ten inside [from, to] (positive); with fewer than three decades also at 2 and
// 5 times them; with many decades every k-th decade so that at most `max_count` remain.
std::vector<Tick> log_ticks(double from, double to, int max_count);

// The shortest label that tells neighbouring ticks apart at this step: "0.25", "1e+06", "-3".
QString tick_label(double value, double step);

} // namespace bif::plot
