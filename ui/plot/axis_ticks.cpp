#include "ui/plot/axis_ticks.h"

#include <algorithm>
#include <cmath>

namespace bif::plot {

namespace {

// The smallest step of 1, 2 or 5 x 10^k that is at least `raw`.
double nice_step(double raw) {
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= raw * (1.0 - 1e-9)) return m * decade;
    return 10.0 * decade;
}

} // namespace

QString tick_label(double value, double step) {
    if (std::abs(value) < step * 1e-6) return QStringLiteral("0");
    const double magnitude = std::max(std::abs(value), step);
    if (magnitude >= 1e6 || magnitude < 1e-4) {
        // Enough significant digits to show the step's place.
        const int digits = std::clamp(static_cast<int>(std::floor(std::log10(std::abs(value)))) -
                                          static_cast<int>(std::floor(std::log10(step))),
                                      0, 12);
        return QString::number(value, 'e', digits);
    }
    const int decimals = std::clamp(-static_cast<int>(std::floor(std::log10(step) + 1e-9)), 0, 12);
    return QString::number(value, 'f', decimals);
}

std::vector<Tick> linear_ticks(double from, double to, int max_count) {
    std::vector<Tick> ticks;
    if (from > to) std::swap(from, to);
    if (!std::isfinite(from) || !std::isfinite(to) || !(to > from) || max_count < 1) return ticks;
    const double step = nice_step((to - from) / std::max(1, max_count));
    const double first = std::ceil(from / step - 1e-9);
    for (double k = first;; k += 1.0) {
        const double v = k * step;
        if (v > to + step * 1e-9) break;
        ticks.push_back({std::abs(v) < step * 1e-9 ? 0.0 : v, tick_label(v, step)});
    }
    return ticks;
}

std::vector<Tick> log_ticks(double from, double to, int max_count) {
    std::vector<Tick> ticks;
    if (from > to) std::swap(from, to);
    if (!(from > 0.0) || !std::isfinite(to) || !(to > from) || max_count < 1) return ticks;
    const int low = static_cast<int>(std::ceil(std::log10(from) - 1e-9));
    const int high = static_cast<int>(std::floor(std::log10(to) + 1e-9));
    const int decades = high - low + 1;
    if (decades < 2) {
        // Less than a decade shows: a log axis reads best with plain nice numbers.
        return linear_ticks(from, to, max_count);
    }
    const bool minor = decades < 3 && 3 * decades <= max_count;
    const int every = std::max(1, (decades + max_count - 1) / max_count);
    for (int e = low - 1; e <= high; ++e) {
        const double decade = std::pow(10.0, e);
        for (double m : {1.0, 2.0, 5.0}) {
            if (m != 1.0 && !minor) continue;
            if (m == 1.0 && (e - low) % every != 0) continue;
            const double v = m * decade;
            if (v < from * (1 - 1e-9) || v > to * (1 + 1e-9)) continue;
            const QString label = e >= -3 && e <= 4 ? tick_label(v, decade) : QString::number(v, 'g', 1);
            ticks.push_back({v, label});
        }
    }
    return ticks;
}

} // namespace bif::plot
