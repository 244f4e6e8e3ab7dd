// Basins of attraction: the attractors that systems reached, numbered in the order of the first
// system that reached each (so labels do not depend on threads or batches when systems are
// classified in index order).
//
// An attractor is its period p and its cycle: the last p recorded section points. Two cycles match
// when some rotation of one lies within the tolerance of the other, point by point and component by
// component (|a - b| <= tolerance * (1 + |a|)). Systems without a period (p = 0: chaotic or
// quasi-periodic motion, or a period above max_period) share one attractor of period 0; they cannot
// be told apart by section points.
#pragma once

#include <cstddef>
#include <vector>

namespace bif::analysis {

class AttractorTable {
  public:
    // The label of the attractor at infinity: systems that escaped beyond the solver's bound. Fixed,
    // outside the table's numbering, so that it reads the same in every study.
    static constexpr int escape_label = -2;
    static constexpr const char* escape_name = "escape (|y| > bound)";

    AttractorTable(double tolerance, int max_attractors) : tolerance_(tolerance), max_(max_attractors) {}

    // `points` holds the rows x n section states of one system, row-major, the oldest first. Returns
    // the label (from 0), or -1 when the table is full and the attractor is new.
    int classify(int period, const std::vector<double>& points, std::size_t rows, std::size_t n);

    std::size_t size() const { return attractors_.size(); }
    bool overflowed() const { return overflowed_; }
    int period(int label) const { return attractors_[std::size_t(label)].period; }

  private:
    struct Attractor {
        int period = 0;
        std::vector<double> cycle; // period x n
    };
    bool matches(const Attractor& a, const std::vector<double>& cycle, std::size_t n) const;

    double tolerance_;
    int max_;
    bool overflowed_ = false;
    std::vector<Attractor> attractors_;
};

} // namespace bif::analysis
