// The grid of swept values, one system per grid point.
//
// Order: row-major with the FIRST axis fastest. System s sits at axis indices
//   i0 = s % n0,  i1 = (s / n0) % n1,  ...
// so consecutive systems are neighbours along the first axis (the horizontal axis of a map): their
// costs are alike, which keeps GPU warps and CPU chunks balanced. With no axes there is one system.
//
// A subset grid (subset()) holds some points of a whole grid in a chosen order: its system s is the
// whole grid's point points[s], with the very same values. values(axis) stays the whole grid's axis.
// The backends read swept values through value() only, so a ResolvedStudy copy whose grid is a subset
// runs exactly those systems, bit for bit as in the whole study (progressive jobs run passes so).
#pragma once

#include "engine/study/study.h"

#include <cstddef>
#include <vector>

namespace bif::study {

// The values of one axis: linear from + (to-from)*i/(count-1), log from*(to/from)^(i/(count-1)),
// with both ends exact; count 1 gives {from}. Requires count >= 1 and, for log, positive bounds.
std::vector<double> axis_values(const SweepAxis& axis);

class SweepGrid {
  public:
    SweepGrid() = default;
    explicit SweepGrid(std::vector<std::vector<double>> values_per_axis);

    std::size_t axis_count() const { return values_.size(); }
    std::size_t system_count() const { return system_count_; }
    const std::vector<double>& values(std::size_t axis) const { return values_[axis]; }

    std::size_t axis_index(std::size_t system, std::size_t axis) const;
    double value(std::size_t system, std::size_t axis) const {
        return values_[axis][axis_index(system, axis)];
    }

    // The grid of these points of this grid (system s of the subset is point points[s] here); each
    // must be below system_count(). A subset of a subset refers to the same whole grid.
    SweepGrid subset(std::vector<std::size_t> points) const;
    // subset() of the points [first, first + count), held as the range alone (a streamed block of
    // 2^22 systems has no list of 32 MB to copy and read).
    SweepGrid subset_range(std::size_t first, std::size_t count) const;
    bool is_subset() const { return subset_; }
    // Whether system s sits at the whole grid's point whole_point(0) + s (a whole grid, a range).
    bool consecutive() const { return !subset_ || ranged_; }
    // The point of the whole grid that system `system` sits at (itself unless a subset).
    std::size_t whole_point(std::size_t system) const {
        return !subset_ ? system : ranged_ ? offset_ + system : points_[system];
    }

  private:
    std::vector<std::vector<double>> values_;
    std::vector<std::size_t> stride_;
    std::size_t system_count_ = 1;
    bool subset_ = false;
    std::vector<std::size_t> points_; // subset only: the whole grid's point of each system
    bool ranged_ = false;             // a subset_range: system s is point offset_ + s, no points_
    std::size_t offset_ = 0;
};

} // namespace bif::study
