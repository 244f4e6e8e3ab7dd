#include "engine/study/decimal_rounding.h"

#include <charconv>
#include <cmath>

namespace bif::study {

namespace {

// The text `value` prints as in `format` with `precision`, read back: the double nearest that
// decimal, whose shortest text is that decimal.
double through_text(double value, std::chars_format format, int precision) {
    char buffer[400];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value, format, precision);
    if (written.ec != std::errc()) return value;
    double read = value;
    std::from_chars(buffer, written.ptr, read);
    return read;
}

} // namespace

double round_significant(double value, int digits) {
    if (!std::isfinite(value) || value == 0.0 || digits < 1) return value;
    return through_text(value, std::chars_format::scientific, digits - 1);
}

double round_to_resolution(double value, double resolution) {
    if (!std::isfinite(value) || !(resolution > 0.0) || !std::isfinite(resolution)) return value;
    const int exponent = int(std::floor(std::log10(resolution)));
    if (exponent >= 0) {
        const double step = std::pow(10.0, exponent);
        return std::round(value / step) * step;
    }
    return through_text(value, std::chars_format::fixed, -exponent);
}

} // namespace bif::study
