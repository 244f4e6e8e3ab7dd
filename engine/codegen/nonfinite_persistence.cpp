#include "engine/codegen/nonfinite_persistence.h"

#include <cmath>
#include <unordered_map>

namespace bif::codegen::detail {
namespace {

bool positive_integer(const sym::ExprPool& pool, sym::NodeId id) {
    const sym::Node& n = pool.node(id);
    return n.op == sym::Op::Constant && n.value >= 1 && n.value <= 64 && std::floor(n.value) == n.value;
}

// Whether every leaf of `e` reaches its value through operations that keep a non-finite operand
// non-finite; the states it reads are marked in `read`. `seen` holds the nodes already walked
// (formulas share subexpressions: a walk without it can be exponential in the depth).
struct Walk {
    const sym::ExprPool& pool;
    std::vector<bool>& read;
    std::unordered_map<sym::NodeId, bool> seen;

    bool propagates(sym::NodeId e) {
        if (const auto it = seen.find(e); it != seen.end()) return it->second;
        const bool result = visit(pool.node(e));
        seen.emplace(e, result);
        return result;
    }

    bool visit(const sym::Node& n) {
        switch (n.op) {
        case sym::Op::Constant:
        case sym::Op::Param:
        case sym::Op::Time:
            return true;
        case sym::Op::State:
            if (n.index < read.size()) read[n.index] = true;
            return true;
        case sym::Op::Neg:
        case sym::Op::Abs:
            return propagates(n.args[0]);
        case sym::Op::Add:
        case sym::Op::Sub:
        case sym::Op::Mul:
            return propagates(n.args[0]) && propagates(n.args[1]);
        case sym::Op::Pow:
            return positive_integer(pool, n.args[1]) && propagates(n.args[0]);
        default:
            return false;
        }
    }
};

} // namespace

bool nonfinite_persists(const sym::ExprPool& pool, const std::vector<sym::NodeId>& next) {
    std::vector<bool> read_by_propagating(next.size(), false);
    for (const sym::NodeId root : next) {
        std::vector<bool> read(next.size(), false);
        if (!Walk{pool, read, {}}.propagates(root)) continue;
        for (std::size_t i = 0; i < read.size(); ++i)
            if (read[i]) read_by_propagating[i] = true;
    }
    for (const bool r : read_by_propagating)
        if (!r) return false;
    return !next.empty();
}

} // namespace bif::codegen::detail
