// Symbolic differentiation: the chain rule for every operation, simplified by the builders.
#include "engine/symbolic/expr.h"

#include <numbers>
#include <stdexcept>

namespace bif::sym {

// The digamma function psi(x) = lgamma'(x) as a formula: for x >= 1/2 the recurrence
// psi(x) = psi(x+6) - sum_{k<6} 1/(x+k) and the asymptotic series at z = x+6 >= 6.5,
//   psi(z) ~ ln z - 1/(2z) - 1/(12z^2) + 1/(120z^4) - 1/(252z^6) + 1/(240z^8) - 1/(132z^10) + 691/(32760z^12)
// (Abramowitz & Stegun 6.3.18; the first omitted term is below 4e-13), and below 1/2 the reflection
// psi(x) = psi(1-x) - pi / tan(pi x) (A&S 6.3.7). Its derivatives follow by the rules here.
namespace {

NodeId digamma(ExprPool& pool, NodeId x) {
    auto c = [&](double v) { return pool.constant(v); };
    auto binary = [&](Op op, NodeId a, NodeId b) { return pool.binary(op, a, b); };
    auto positive = [&](NodeId y) {
        const NodeId z = binary(Op::Add, y, c(6.0));
        const NodeId w = binary(Op::Div, c(1.0), binary(Op::Mul, z, z)); // 1/z^2
        // ((((( 691/32760 w - 1/132) w + 1/240) w - 1/252) w + 1/120) w - 1/12) w
        NodeId series = c(691.0 / 32760.0);
        for (const double coefficient : {-1.0 / 132.0, 1.0 / 240.0, -1.0 / 252.0, 1.0 / 120.0, -1.0 / 12.0})
            series = binary(Op::Add, binary(Op::Mul, series, w), c(coefficient));
        series = binary(Op::Mul, series, w);
        NodeId psi = binary(Op::Sub, pool.unary(Op::Log, z), binary(Op::Div, c(0.5), z));
        psi = binary(Op::Add, psi, series);
        for (int k = 0; k < 6; ++k)
            psi = binary(Op::Sub, psi, binary(Op::Div, c(1.0), binary(Op::Add, y, c(double(k)))));
        return psi;
    };
    const NodeId pi_x = binary(Op::Mul, c(std::numbers::pi), x);
    const NodeId reflected = binary(Op::Sub, positive(binary(Op::Sub, c(1.0), x)),
                                    binary(Op::Div, c(std::numbers::pi), pool.unary(Op::Tan, pi_x)));
    return pool.if_then_else(binary(Op::Lt, x, c(0.5)), reflected, positive(x));
}

} // namespace

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
    // lgamma' = digamma, which no back end has as a function: written out (digamma below)
    case Op::LGamma:
        out = mul(digamma(*this, a), d(a));
        break;
    // the interpolant's derivative: the slope of its segment (piecewise constant, so no further terms)
    case Op::Table:
        out = mul(make(Op::TableSlope, {a}, n.index), d(a));
        break;
    case Op::TableSlope:
        break;
    // J_k' = (J_{k-1} - J_{k+1}) / 2 with k the truncated order sign(n) flr(|n|), as XPPAUT
    // truncates it; the same for Y_k. The order itself is piecewise constant.
    case Op::BesselJ:
    case Op::BesselY: {
        const NodeId k = mul(fn(Op::Sign, a), fn(Op::Floor, fn(Op::Abs, a)));
        out = mul(mul(c(0.5), sub(binary(n.op, sub(k, c(1.0)), b), binary(n.op, add(k, c(1.0)), b))), d(b));
        break;
    }
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
