// The sparsity of a symbolic Jacobian: which entries are not the constant 0, and the band that
// holds them. Big method-of-lines models have a few nonzeros per row in a narrow band; the code
// generator then writes only those entries and a banded Jacobian for the Rosenbrock steppers
// (kernels/bif/banded_lu.h), instead of N^2 statements and a dense LU.
#pragma once

#include "engine/symbolic/expr.h"

#include <cstddef>
#include <vector>

namespace bif::codegen::detail {

struct JacobianPattern {
    int n = 0;
    int lower_band = 0;                // kl: J(i, j) == 0 for i - j > kl
    int upper_band = 0;                // ku: J(i, j) == 0 for j - i > ku
    std::vector<std::size_t> nonzeros; // flat row-major indices i*n + j, ascending

    // Up to this dimension the dense Jacobian is written out entry by entry (zeros included), as
    // the dense LU unrolls there too (kUnrollLimit in kernels/bif/linalg.h).
    static constexpr int kDenseLimit = 12;
    bool write_dense() const { return n <= kDenseLimit; }
    // Whether the generated model provides jacobian_band: above the dense limit, when the band
    // storage (2 kl + ku + 1 rows) is at most half the dense matrix's n rows.
    bool banded_pays() const { return n > kDenseLimit && 2 * (2 * lower_band + upper_band + 1) <= n; }
};

// The pattern of a row-major n x n Jacobian of nodes in `pool`: an entry is structurally zero when
// it is the constant 0 (the symbolic derivative of a formula that does not read the state).
JacobianPattern jacobian_pattern(const sym::ExprPool& pool, const std::vector<sym::NodeId>& jacobian, int n);

} // namespace bif::codegen::detail
