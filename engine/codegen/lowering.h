// Lowering a function's formulas into a schedule: which DAG nodes are computed in which order,
// which are computed once and named (shared subexpressions), and which live only inside one
// branch of an if() so that they are evaluated only when that branch is taken.
//
// Both back ends consume the same schedule: the C++ writer names the `named` steps as temporaries
// and writes the others inline; the host evaluator gives every step a register.
#pragma once

#include "engine/symbolic/expr.h"

#include <vector>

namespace bif::codegen::detail {

// How x^c with a constant exponent is computed; the expanded forms avoid pow() (slow on GPUs).
enum class PowForm { General, Square, Cube, Fourth, Reciprocal, ReciprocalSquare, Sqrt, ReciprocalSqrt };
PowForm pow_form(const sym::ExprPool& pool, const sym::Node& pow_node);

struct Block;

struct Step {
    sym::NodeId node = 0;
    bool named = false;          // computed once into a temporary (used more than once, or a result)
    std::vector<Block> branches; // for IfThenElse: the then and else blocks; empty otherwise
};

// Steps in dependency order. A block evaluates to `result`; the nodes its steps use that are not
// its own steps are leaves, constants, or named steps of an enclosing block.
struct Block {
    std::vector<Step> steps;
    sym::NodeId result = 0;
};

// Whether a block needs statements (it has a named step somewhere), so that an if() using it
// cannot be written as an inline conditional expression.
bool needs_statements(const Block& block);

// Lowers the roots of one function together: nodes shared between roots are computed once. Every
// root that is not a leaf or a constant is a named step of the returned block.
Block lower(const sym::ExprPool& pool, const std::vector<sym::NodeId>& roots);

} // namespace bif::codegen::detail
