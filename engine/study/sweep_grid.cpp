#include "engine/study/sweep_grid.h"

#include <cmath>
#include <stdexcept>

namespace bif::study {

std::vector<double> axis_values(const SweepAxis& axis) {
    const int n = axis.count < 1 ? 1 : axis.count;
    std::vector<double> values(static_cast<std::size_t>(n));
    values[0] = axis.from;
    if (n == 1) return values;
    const double log_from = axis.scale == SweepScale::Log ? std::log(axis.from) : 0.0;
    const double log_to = axis.scale == SweepScale::Log ? std::log(axis.to) : 0.0;
    for (int i = 1; i < n - 1; ++i) {
        const double f = static_cast<double>(i) / (n - 1);
        // Interpolating between the two ends (rather than accumulating a step) keeps every value
        // within one rounding of the exact one.
        values[i] = axis.scale == SweepScale::Log ? std::exp(log_from + (log_to - log_from) * f)
                                                  : axis.from + (axis.to - axis.from) * f;
    }
    values[n - 1] = axis.to;
    return values;
}

SweepGrid::SweepGrid(std::vector<std::vector<double>> values_per_axis) : values_(std::move(values_per_axis)) {
    stride_.resize(values_.size());
    system_count_ = 1;
    for (std::size_t a = 0; a < values_.size(); ++a) {
        stride_[a] = system_count_;
        system_count_ *= values_[a].size();
    }
}

std::size_t SweepGrid::axis_index(std::size_t system, std::size_t axis) const {
    return (whole_point(system) / stride_[axis]) % values_[axis].size();
}

SweepGrid SweepGrid::subset(std::vector<std::size_t> points) const {
    SweepGrid sub = *this;
    for (auto& point : points) {
        if (point >= system_count_) throw std::out_of_range("SweepGrid::subset: point beyond the grid");
        point = whole_point(point);
    }
    sub.subset_ = true;
    sub.ranged_ = false;
    sub.system_count_ = points.size();
    sub.points_ = std::move(points);
    return sub;
}

SweepGrid SweepGrid::subset_range(std::size_t first, std::size_t count) const {
    if (count > 0 && (first >= system_count_ || count > system_count_ - first))
        throw std::out_of_range("SweepGrid::subset_range: points beyond the grid");
    if (subset_ && !ranged_) {
        std::vector<std::size_t> points(count);
        for (std::size_t i = 0; i < count; ++i)
            points[i] = first + i;
        return subset(std::move(points));
    }
    SweepGrid sub = *this;
    sub.subset_ = true;
    sub.ranged_ = true;
    sub.offset_ = whole_point(0) + first;
    sub.system_count_ = count;
    return sub;
}

} // namespace bif::study
