// ExprPool's read-only walks: evaluation, dependency test and printing.
#include "engine/symbolic/expr.h"
#include "engine/symbolic/scalar_ops.h"

#include <cstdio>
#include <unordered_set>

namespace bif::sym {

double ExprPool::evaluate(NodeId e, const double* y, const double* p, double t) const {
    const Node& n = nodes_[e];
    switch (n.op) {
    case Op::Constant:
        return n.value;
    case Op::State:
        return y[n.index];
    case Op::Param:
        return p[n.index];
    case Op::Time:
        return t;
    case Op::IfThenElse:
        return evaluate(n.args[0], y, p, t) != 0.0 ? evaluate(n.args[1], y, p, t)
                                                   : evaluate(n.args[2], y, p, t);
    case Op::Table:
        return table_value(tables_.at(n.index), evaluate(n.args[0], y, p, t));
    case Op::TableSlope:
        return table_slope(tables_.at(n.index), evaluate(n.args[0], y, p, t));
    default:
        break;
    }
    const double a = evaluate(n.args[0], y, p, t);
    const double b = arity(n.op) == 2 ? evaluate(n.args[1], y, p, t) : 0.0;
    return apply_op(n.op, a, b);
}

bool ExprPool::depends_on_state_or_time(NodeId e) const {
    std::vector<NodeId> todo{e};
    std::unordered_set<NodeId> seen{e};
    while (!todo.empty()) {
        const Node& n = nodes_[todo.back()];
        todo.pop_back();
        if (n.op == Op::State || n.op == Op::Time) return true;
        for (int i = 0; i < arity(n.op); ++i) {
            if (seen.insert(n.args[i]).second) todo.push_back(n.args[i]);
        }
    }
    return false;
}

std::string ExprPool::to_string(NodeId e) const {
    const Node& n = nodes_[e];
    switch (n.op) {
    case Op::Constant: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", n.value);
        return buf;
    }
    case Op::State:
        return "y[" + std::to_string(n.index) + "]";
    case Op::Param:
        return "p[" + std::to_string(n.index) + "]";
    case Op::Time:
        return "t";
    case Op::Neg:
        return "(-" + to_string(n.args[0]) + ")";
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Pow:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
        return std::string("(")
            .append(to_string(n.args[0]))
            .append(" ")
            .append(spelling(n.op))
            .append(" ")
            .append(to_string(n.args[1]))
            .append(")");
    default:
        break;
    }
    std::string out = std::string(spelling(n.op)) + "(";
    if (n.op == Op::Table || n.op == Op::TableSlope) out += std::to_string(n.index) + ", ";
    for (int i = 0; i < arity(n.op); ++i) {
        if (i > 0) out += ", ";
        out += to_string(n.args[i]);
    }
    return out + ")";
}

} // namespace bif::sym
