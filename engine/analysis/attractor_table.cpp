#include "engine/analysis/attractor_table.h"

#include <cmath>

namespace bif::analysis {

bool AttractorTable::matches(const Attractor& a, const std::vector<double>& cycle, std::size_t n) const {
    const std::size_t p = static_cast<std::size_t>(a.period);
    if (p == 0) return true;
    for (std::size_t shift = 0; shift < p; ++shift) {
        bool all = true;
        for (std::size_t j = 0; j < p && all; ++j)
            for (std::size_t i = 0; i < n && all; ++i) {
                const double x = a.cycle[j * n + i], y = cycle[((j + shift) % p) * n + i];
                all = std::abs(x - y) <= tolerance_ * (1.0 + std::abs(x));
            }
        if (all) return true;
    }
    return false;
}

int AttractorTable::classify(int period, const std::vector<double>& points, std::size_t rows, std::size_t n) {
    const std::size_t p = period > 0 ? static_cast<std::size_t>(period) : 0;
    std::vector<double> cycle;
    if (p > 0 && p <= rows) cycle.assign(points.end() - static_cast<std::ptrdiff_t>(p * n), points.end());
    const int effective = cycle.empty() ? 0 : period;
    for (std::size_t k = 0; k < attractors_.size(); ++k)
        if (attractors_[k].period == effective && matches(attractors_[k], cycle, n))
            return static_cast<int>(k);
    if (static_cast<int>(attractors_.size()) >= max_) {
        overflowed_ = true;
        return -1;
    }
    attractors_.push_back({effective, std::move(cycle)});
    return static_cast<int>(attractors_.size()) - 1;
}

} // namespace bif::analysis
