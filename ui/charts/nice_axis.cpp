#include "ui/charts/nice_axis.h"

#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

namespace bif::ui {

namespace {

constexpr double target_ticks = 5.0;
constexpr int default_max_ticks = 7;

// The range set_nice_range was last asked for and the most ticks that fit: dynamic properties, so
// that keep_ticks_fitting can re-tick any nice axis of a chart.
constexpr const char* lo_key = "bifscope_nice_lo";
constexpr const char* hi_key = "bifscope_nice_hi";
constexpr const char* exact_key = "bifscope_nice_exact";
constexpr const char* max_key = "bifscope_nice_max_ticks";

double next_nice(double step) {
    const double decade = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
    const double m = step / decade;
    return (m < 1.5 ? 2.0 : m < 3.5 ? 5.0 : 10.0) * decade;
}

double nice_step(double span, int max_ticks) {
    const double raw = span / std::min(target_ticks, double(max_ticks));
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    const double m = raw / decade;
    double step = (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * decade;
    // Coarser until the ticks (both ends included) fit.
    while (std::floor(span / step + 1e-9) + 1 > max_ticks)
        step = next_nice(step);
    return step;
}

// Qt Charts gives each label of a vertical category axis length / (ticks + 1) less twice its
// padding, and a horizontal one its share of the width; the label's own box has the text
// document's margins around the text.
int ticks_that_fit(const QCategoryAxis& axis, double length, Qt::Orientation orientation) {
    const QFontMetricsF metrics(axis.labelsFont());
    constexpr double padding = 2 * 5.0 + 2 * 4.0;
    const double label = orientation == Qt::Vertical
                             ? metrics.height() + padding
                             : metrics.horizontalAdvance(QStringLiteral("-0.0000")) + padding;
    return std::clamp(int(length / label) - 1, 2, default_max_ticks);
}

void place_ticks(QCategoryAxis& axis, double lo, double hi, bool exact, int max_ticks) {
    for (const QString& label : axis.categoriesLabels())
        axis.remove(label);
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) {
        axis.setRange(lo, hi);
        return;
    }
    const double step = nice_step(hi - lo, max_ticks);
    if (!exact) lo = std::floor(lo / step) * step, hi = std::ceil(hi / step) * step;
    const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
    axis.setStartValue(lo);
    for (double k = first; k <= last; ++k) {
        const double value = k * step;
        axis.append(QString::number(value, 'g', 6), value);
    }
    axis.setRange(lo, hi);
}

} // namespace

QCategoryAxis* make_nice_axis() {
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    return axis;
}

void set_nice_range(QCategoryAxis& axis, double lo, double hi, bool exact) {
    axis.setProperty(lo_key, lo);
    axis.setProperty(hi_key, hi);
    axis.setProperty(exact_key, exact);
    const QVariant max = axis.property(max_key);
    place_ticks(axis, lo, hi, exact, max.isValid() ? max.toInt() : default_max_ticks);
}

void keep_ticks_fitting(QChart& chart) {
    QObject::connect(&chart, &QChart::plotAreaChanged, &chart, [&chart](const QRectF& area) {
        for (QAbstractAxis* a : chart.axes()) {
            auto* axis = qobject_cast<QCategoryAxis*>(a);
            if (!axis || !axis->property(lo_key).isValid()) continue;
            const double length = axis->orientation() == Qt::Vertical ? area.height() : area.width();
            const int fit = ticks_that_fit(*axis, length, axis->orientation());
            const QVariant max = axis->property(max_key);
            if (max.isValid() && max.toInt() == fit) continue;
            axis->setProperty(max_key, fit);
            place_ticks(*axis, axis->property(lo_key).toDouble(), axis->property(hi_key).toDouble(),
                        axis->property(exact_key).toBool(), fit);
        }
    });
}

} // namespace bif::ui
