// Value axes with round ticks: a step of 1, 2 or 5 times a power of ten, each tick labelled with
// k * step computed exactly, so that zero reads "0" (Qt's own dynamic ticks accumulate the step and
// may label it 1.4e-17). The ticks are the categories of a QCategoryAxis placed on their values.
#pragma once

class QCategoryAxis;
class QChart;

namespace bif::ui {

QCategoryAxis* make_nice_axis();

// Ticks every nice step over [lo, hi]; the range itself is widened to whole steps unless `exact`.
// No more ticks than the axis's length holds (see keep_ticks_fitting).
void set_nice_range(QCategoryAxis& axis, double lo, double hi, bool exact = false);

// Re-ticks the chart's nice axes whenever its plot area changes size, so that every label has the
// room Qt Charts asks of it: a category label taller than length / (ticks + 1) less its padding is
// drawn as "…", which a short chart in a docked inspector otherwise shows for every y label.
void keep_ticks_fitting(QChart& chart);

} // namespace bif::ui
