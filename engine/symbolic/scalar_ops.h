// The value of one operation on numbers, with XPPAUT's semantics. Shared by constant folding, the
// recursive evaluator and the compiler-free evaluator so that all three agree exactly; the
// generated code reaches the same semantics through bif::m:: (kernels/bif/config.h).
#pragma once

#include "engine/symbolic/expr.h"

#include <cmath>

namespace bif::sym {

inline double truth_value(bool c) {
    return c ? 1.0 : 0.0;
}

// Bessel orders are truncated to int as XPPAUT does; beyond this the cast would be undefined.
inline bool bessel_order_ok(double n) {
    return std::fabs(n) < 1e6;
}

// Value of a pure operation (everything except leaves, IfThenElse and the table lookups, which need
// the pool's tables) on its argument values;
// unary operations ignore b.
inline double apply_op(Op op, double a, double b) {
    switch (op) {
    case Op::Neg:
        return -a;
    case Op::Add:
        return a + b;
    case Op::Sub:
        return a - b;
    case Op::Mul:
        return a * b;
    case Op::Div:
        return a / b;
    case Op::Pow:
        return std::pow(a, b);
    case Op::Lt:
        return truth_value(a < b);
    case Op::Le:
        return truth_value(a <= b);
    case Op::Gt:
        return truth_value(a > b);
    case Op::Ge:
        return truth_value(a >= b);
    case Op::Eq:
        return truth_value(a == b);
    case Op::Ne:
        return truth_value(a != b);
    case Op::And:
        return truth_value(a != 0.0 && b != 0.0);
    case Op::Or:
        return truth_value(a != 0.0 || b != 0.0);
    case Op::Not:
        return truth_value(a == 0.0);
    case Op::Sin:
        return std::sin(a);
    case Op::Cos:
        return std::cos(a);
    case Op::Tan:
        return std::tan(a);
    case Op::Asin:
        return std::asin(a);
    case Op::Acos:
        return std::acos(a);
    case Op::Atan:
        return std::atan(a);
    case Op::Sinh:
        return std::sinh(a);
    case Op::Cosh:
        return std::cosh(a);
    case Op::Tanh:
        return std::tanh(a);
    case Op::Exp:
        return std::exp(a);
    case Op::Log:
        return std::log(a);
    case Op::Log10:
        return std::log10(a);
    case Op::Sqrt:
        return std::sqrt(a);
    case Op::Abs:
        return std::fabs(a);
    case Op::Heav:
        return truth_value(a >= 0.0); // heav(0) = 1; NaN gives 0 like bif::m::heav
    case Op::Sign:
        return a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
    case Op::Floor:
        return std::floor(a);
    case Op::Ceil:
        return std::ceil(a);
    case Op::Erf:
        return std::erf(a);
    case Op::Erfc:
        return std::erfc(a);
    case Op::LGamma:
        return std::lgamma(a);
    case Op::BesselJ:
        return bessel_order_ok(a) ? ::jn(static_cast<int>(a), b) : std::nan("");
    case Op::BesselY:
        return bessel_order_ok(a) ? ::yn(static_cast<int>(a), b) : std::nan("");
    case Op::Atan2:
        return std::atan2(a, b);
    case Op::Mod:
        return a - b * std::floor(a / b);
    case Op::Min:
        return std::fmin(a, b);
    case Op::Max:
        return std::fmax(a, b);
    default:
        return std::nan("");
    }
}

} // namespace bif::sym
