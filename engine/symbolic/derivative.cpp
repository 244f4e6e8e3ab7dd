// Symbolic differentiation: the chain rule for every operation, simplified by the builders.
#include "engine/symbolic/expr.h"

#include <numbers>
#include <stdexcept>

namespace bif::sym {

NodeId ExprPool::derivative(NodeId e, NodeId var) {
    const Op var_op = nodes_[var].op;
    if (var_op != Op::State && var_op != Op::Param && var_op != Op::Time) {
        throw std::invalid_argument("ExprPool::derivative: the variable must be a State, Param or Time leaf");
    }
    const std::uint64_t cache_key = (static_cast<std::uint64_t>(e) << 32) | var;
    if (auto it = derivative_cache_.find(cache_key); it != derivative_cache_.end()) return it->second;

    const Node n = nodes_[e]; // a copy: building nodes below may grow nodes_
    const NodeId a = n.args[0];
    const NodeId b = n.args[1];
    auto d = [&](NodeId x) { return derivative(x, var); };
    auto c = [&](double v) { return constant(v); };
    auto add = [&](NodeId x, NodeId y) { return binary(Op::Add, x, y); };
    auto sub = [&](NodeId x, NodeId y) { return binary(Op::Sub, x, y); };
    auto mul = [&](NodeId x, NodeId y) { return binary(Op::Mul, x, y); };
    auto div = [&](NodeId x, NodeId y) { return binary(Op::Div, x, y); };
    auto neg = [&](NodeId x) { return unary(Op::Neg, x); };
    auto fn = [&](Op op, NodeId x) { return unary(op, x); };

    NodeId out = c(0.0);
    switch (n.op) {
    case Op::Constant:
        break;
    case Op::State:
    case Op::Param:
    case Op::Time:
        out = e == var ? c(1.0) : c(0.0);
        break;
    case Op::Neg:
        out = neg(d(a));
        break;
    case Op::Add:
        out = add(d(a), d(b));
        break;
    case Op::Sub:
        out = sub(d(a), d(b));
        break;
    case Op::Mul:
        out = add(mul(d(a), b), mul(a, d(b)));
        break;
    // (a/b)' = (a' - (a/b) b') / b, which reuses the node a/b itself
    case Op::Div:
        out = div(sub(d(a), mul(e, d(b))), b);
        break;
    case Op::Pow: {
        const NodeId da = d(a);
        const NodeId db = d(b);
        if (nodes_[b].op == Op::Constant) {
            // (a^c)' = c a^(c-1) a'
            const double k = nodes_[b].value;
            out = mul(mul(c(k), binary(Op::Pow, a, c(k - 1.0))), da);
        } else if (nodes_[a].op == Op::Constant) {
            out = mul(mul(e, fn(Op::Log, a)), db);
        } else {
            // (a^b)' = a^b (b' ln a + b a'/a)
            out = mul(e, add(mul(db, fn(Op::Log, a)), div(mul(b, da), a)));
        }
        break;
    }
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
    case Op::Not:
    case Op::Heav:
    case Op::Sign:
    case Op::Floor:
    case Op::Ceil:
        break; // piecewise constant
    case Op::IfThenElse:
        out = if_then_else(a, d(b), d(n.args[2]));
        break;
    case Op::Sin:
        out = mul(fn(Op::Cos, a), d(a));
        break;
    case Op::Cos:
        out = neg(mul(fn(Op::Sin, a), d(a)));
        break;
    case Op::Tan:
        out = mul(add(c(1.0), mul(e, e)), d(a));
        break; // 1 + tan^2
    case Op::Asin:
        out = div(d(a), fn(Op::Sqrt, sub(c(1.0), mul(a, a))));
        break;
    case Op::Acos:
        out = neg(div(d(a), fn(Op::Sqrt, sub(c(1.0), mul(a, a)))));
        break;
    case Op::Atan:
        out = div(d(a), add(c(1.0), mul(a, a)));
        break;
    case Op::Sinh:
        out = mul(fn(Op::Cosh, a), d(a));
        break;
    case Op::Cosh:
        out = mul(fn(Op::Sinh, a), d(a));
        break;
    case Op::Tanh:
        out = mul(sub(c(1.0), mul(e, e)), d(a));
        break; // 1 - tanh^2
    case Op::Exp:
        out = mul(e, d(a));
        break;
    case Op::Log:
        out = div(d(a), a);
        break;
    case Op::Log10:
        out = div(d(a), mul(a, c(std::numbers::ln10)));
        break;
    case Op::Sqrt:
        out = div(d(a), mul(c(2.0), e));
        break;
    case Op::Abs:
        out = mul(fn(Op::Sign, a), d(a));
        break;
    // erf' = 2/sqrt(pi) exp(-a^2)
    case Op::Erf:
        out = mul(mul(c(std::numbers::inv_sqrtpi * 2.0), fn(Op::Exp, neg(mul(a, a)))), d(a));
        break;
    case Op::Erfc:
        out = neg(mul(mul(c(std::numbers::inv_sqrtpi * 2.0), fn(Op::Exp, neg(mul(a, a)))), d(a)));
        break;
    // No digamma function exists on every backend: lgamma' is the central difference
    // (lgamma(a+h) - lgamma(a-h)) / 2h with h = 1e-5 (1 + |a|), accurate to about 1e-9 relative.
    case Op::LGamma: {
        const NodeId h = mul(c(1e-5), add(c(1.0), fn(Op::Abs, a)));
        const NodeId slope = div(sub(fn(Op::LGamma, add(a, h)), fn(Op::LGamma, sub(a, h))), mul(c(2.0), h));
        out = mul(slope, d(a));
        break;
    }
    // the interpolant's derivative: the slope of its segment (piecewise constant, so no further terms)
    case Op::Table:
        out = mul(make(Op::TableSlope, {a}, n.index), d(a));
        break;
    case Op::TableSlope:
        break;
    // J_n' = (J_{n-1} - J_{n+1}) / 2, and the same for Y_n (exact for integer orders, the usual
    // case; XPPAUT truncates the order); the order itself is piecewise constant
    case Op::BesselJ:
    case Op::BesselY:
        out = mul(mul(c(0.5), sub(binary(n.op, sub(a, c(1.0)), b), binary(n.op, add(a, c(1.0)), b))), d(b));
        break;
    // atan2(a, b)' = (b a' - a b') / (a^2 + b^2)
    case Op::Atan2:
        out = div(sub(mul(b, d(a)), mul(a, d(b))), add(mul(a, a), mul(b, b)));
        break;
    // mod(a, b) = a - b floor(a/b); the floor is piecewise constant
    case Op::Mod:
        out = sub(d(a), mul(d(b), fn(Op::Floor, div(a, b))));
        break;
    case Op::Min:
        out = if_then_else(binary(Op::Lt, a, b), d(a), d(b));
        break;
    case Op::Max:
        out = if_then_else(binary(Op::Gt, a, b), d(a), d(b));
        break;
    }
    derivative_cache_.emplace(cache_key, out);
    return out;
}

} // namespace bif::sym
