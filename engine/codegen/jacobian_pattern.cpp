#include "engine/codegen/jacobian_pattern.h"

#include <algorithm>

namespace bif::codegen::detail {

JacobianPattern jacobian_pattern(const sym::ExprPool& pool, const std::vector<sym::NodeId>& jacobian, int n) {
    JacobianPattern pattern;
    pattern.n = n;
    for (std::size_t k = 0; k < jacobian.size(); ++k) {
        if (pool.is_constant(jacobian[k], 0.0)) continue;
        pattern.nonzeros.push_back(k);
        const int i = static_cast<int>(k / static_cast<std::size_t>(n));
        const int j = static_cast<int>(k % static_cast<std::size_t>(n));
        pattern.lower_band = std::max(pattern.lower_band, i - j);
        pattern.upper_band = std::max(pattern.upper_band, j - i);
    }
    return pattern;
}

} // namespace bif::codegen::detail
