#include "engine/continuation/study_continuation.h"

#include <algorithm>
#include <cmath>

namespace bif::cont {

ContinuationSettings continuation_settings(const study::EquilibriumStudy& s, int unknowns, int direction,
                                           const std::atomic<bool>* cancel) {
    ContinuationSettings c;
    c.direction = direction;
    c.initial_step = s.step;
    c.min_step = s.min_step;
    c.max_step = s.max_step;
    c.max_points = s.max_points;
    c.box = {{unknowns, s.from, s.to}};
    c.cancel = cancel;
    return c;
}

bool same_branch_point(double parameter_a, const std::vector<double>& a, double parameter_b,
                       const std::vector<double>& b) {
    double gap = std::abs(parameter_a - parameter_b), scale = 1.0 + std::abs(parameter_a);
    for (std::size_t i = 0; i < a.size(); ++i) {
        gap = std::max(gap, std::abs(a[i] - b[i]));
        scale = std::max(scale, 1.0 + std::abs(a[i]));
    }
    return gap <= 1e-6 * scale;
}

} // namespace bif::cont
