#include "ui/charts/nice_axis.h"

#include <QCategoryAxis>
#include <cmath>

namespace bif::ui {

namespace {

constexpr double target_ticks = 5.0;

double nice_step(double span) {
    const double raw = span / target_ticks;
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / decade;
    return (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * decade;
}

} // namespace

QCategoryAxis* make_nice_axis() {
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    return axis;
}

void set_nice_range(QCategoryAxis& axis, double lo, double hi, bool exact) {
    for (const QString& label : axis.categoriesLabels())
        axis.remove(label);
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
        axis.setRange(lo, hi);
        return;
    }
    const double step = nice_step(hi - lo);
    if (!exact) lo = std::floor(lo / step) * step, hi = std::ceil(hi / step) * step;
    const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
    axis.setStartValue(lo);
    for (double k = first; k <= last; ++k) {
        const double value = k * step;
        axis.append(QString::number(value, 'g', 6), value);
    }
    axis.setRange(lo, hi);
}

} // namespace bif::ui
