// Symbolic derivatives of every operation against central finite differences of the evaluator,
// at seeded random points away from kinks and domain edges.
#include "engine/symbolic/expr.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <random>
#include <set>

using bif::sym::ExprPool;
using bif::sym::NodeId;
using bif::sym::Op;

namespace {

struct Row {
    const char* what;
    // builds the expression from x = y[0] and w = y[1]
    std::function<NodeId(ExprPool&, NodeId, NodeId)> build;
    double lo, hi; // range for x and w
    // points too close to a kink or a domain edge for a finite difference
    std::function<bool(double, double)> valid = [](double, double) { return true; };
};

bool away_from_integer(double v) {
    return std::fabs(v - std::round(v)) > 1e-3;
}

// inner functions, so that the chain rule is exercised: u = 0.7 x + 0.2 w, v = 0.3 w - 0.1 x^2
NodeId inner_u(ExprPool& e, NodeId x, NodeId w) {
    return e.binary(Op::Add, e.binary(Op::Mul, e.constant(0.7), x), e.binary(Op::Mul, e.constant(0.2), w));
}
NodeId inner_v(ExprPool& e, NodeId x, NodeId w) {
    return e.binary(Op::Sub, e.binary(Op::Mul, e.constant(0.3), w),
                    e.binary(Op::Mul, e.constant(0.1), e.binary(Op::Mul, x, x)));
}
double u_of(double x, double w) {
    return 0.7 * x + 0.2 * w;
}
double v_of(double x, double w) {
    return 0.3 * w - 0.1 * x * x;
}

Row unary_row(
    const char* what, Op op, double lo, double hi,
    std::function<bool(double)> valid_u = [](double) { return true; }) {
    return Row{what, [op](ExprPool& e, NodeId x, NodeId w) { return e.unary(op, inner_u(e, x, w)); }, lo, hi,
               [valid_u](double x, double w) { return valid_u(u_of(x, w)); }};
}

Row binary_row(
    const char* what, Op op, double lo, double hi,
    std::function<bool(double, double)> valid_uv = [](double, double) { return true; }) {
    return Row{
        what,
        [op](ExprPool& e, NodeId x, NodeId w) { return e.binary(op, inner_u(e, x, w), inner_v(e, x, w)); },
        lo, hi, [valid_uv](double x, double w) { return valid_uv(u_of(x, w), v_of(x, w)); }};
}

// A lookup in a table of 13 points over [-3, 3] (breakpoints every 0.5), away from the breakpoints.
Row table_row(const char* what, Op op) {
    return Row{what,
               [op](ExprPool& e, NodeId x, NodeId w) {
                   bif::sym::Table table{-3.0, 3.0, {}};
                   for (int k = 0; k < 13; ++k)
                       table.y.push_back(std::sin(0.7 * k) + 0.1 * k * k);
                   return e.make(op, {inner_u(e, x, w)}, e.add_table(table));
               },
               -3, 3, [](double x, double w) { return std::fabs(std::remainder(u_of(x, w), 0.5)) > 1e-3; }};
}

// besselj(n, x) with the order n = 2 + 0.2 u (truncated: piecewise constant) and x = 3 + v.
Row bessel_row(const char* what, Op op) {
    return Row{what,
               [op](ExprPool& e, NodeId x, NodeId w) {
                   const NodeId order = e.binary(Op::Add, e.constant(2.0),
                                                 e.binary(Op::Mul, e.constant(0.2), inner_u(e, x, w)));
                   return e.binary(op, order, e.binary(Op::Add, e.constant(3.0), inner_v(e, x, w)));
               },
               -3, 3,
               [](double x, double w) { return std::fabs(std::remainder(0.2 * u_of(x, w), 1.0)) > 1e-3; }};
}

std::vector<Row> rows() {
    auto nonzero = [](double u) { return std::fabs(u) > 1e-2; };
    auto apart = [](double u, double v) { return std::fabs(u - v) > 1e-2; };
    return {
        unary_row("neg", Op::Neg, -3, 3),
        binary_row("add", Op::Add, -3, 3),
        binary_row("sub", Op::Sub, -3, 3),
        binary_row("mul", Op::Mul, -3, 3),
        binary_row("div", Op::Div, -3, 3, [](double, double v) { return std::fabs(v) > 0.1; }),
        Row{"pow general",
            [](ExprPool& e, NodeId x, NodeId w) {
                return e.binary(Op::Pow, e.binary(Op::Add, e.constant(3.5), inner_u(e, x, w)),
                                inner_v(e, x, w));
            },
            -2, 2},
        Row{"pow constant exponent 3",
            [](ExprPool& e, NodeId x, NodeId w) {
                return e.binary(Op::Pow, inner_u(e, x, w), e.constant(3.0));
            },
            -3, 3},
        Row{"pow constant exponent -2",
            [](ExprPool& e, NodeId x, NodeId w) {
                return e.binary(Op::Pow, inner_u(e, x, w), e.constant(-2.0));
            },
            -3, 3, [](double x, double w) { return std::fabs(u_of(x, w)) > 0.1; }},
        Row{"pow constant exponent 0.5",
            [](ExprPool& e, NodeId x, NodeId w) {
                return e.binary(Op::Pow, inner_u(e, x, w), e.constant(0.5));
            },
            0.2, 3},
        Row{"pow constant base",
            [](ExprPool& e, NodeId x, NodeId w) {
                return e.binary(Op::Pow, e.constant(2.5), inner_v(e, x, w));
            },
            -3, 3},
        binary_row("lt", Op::Lt, -3, 3, apart),
        binary_row("le", Op::Le, -3, 3, apart),
        binary_row("gt", Op::Gt, -3, 3, apart),
        binary_row("ge", Op::Ge, -3, 3, apart),
        binary_row("eq", Op::Eq, -3, 3, apart),
        binary_row("ne", Op::Ne, -3, 3, apart),
        binary_row("and", Op::And, -3, 3,
                   [](double u, double v) { return std::fabs(u) > 1e-2 && std::fabs(v) > 1e-2; }),
        binary_row("or", Op::Or, -3, 3,
                   [](double u, double v) { return std::fabs(u) > 1e-2 && std::fabs(v) > 1e-2; }),
        unary_row("not", Op::Not, -3, 3, nonzero),
        Row{"if",
            [](ExprPool& e, NodeId x, NodeId w) {
                return e.if_then_else(e.binary(Op::Gt, x, w), e.unary(Op::Sin, inner_u(e, x, w)),
                                      e.binary(Op::Mul, x, inner_v(e, x, w)));
            },
            -3, 3, [](double x, double w) { return std::fabs(x - w) > 1e-2; }},
        unary_row("sin", Op::Sin, -3, 3),
        unary_row("cos", Op::Cos, -3, 3),
        unary_row("tan", Op::Tan, -1.2, 1.2),
        unary_row("asin", Op::Asin, -1, 1, [](double u) { return std::fabs(u) < 0.9; }),
        unary_row("acos", Op::Acos, -1, 1, [](double u) { return std::fabs(u) < 0.9; }),
        unary_row("atan", Op::Atan, -3, 3),
        unary_row("sinh", Op::Sinh, -2, 2),
        unary_row("cosh", Op::Cosh, -2, 2),
        unary_row("tanh", Op::Tanh, -2, 2),
        unary_row("exp", Op::Exp, -2, 2),
        unary_row("log", Op::Log, 0.2, 3),
        unary_row("log10", Op::Log10, 0.2, 3),
        unary_row("sqrt", Op::Sqrt, 0.2, 3),
        unary_row("abs", Op::Abs, -3, 3, nonzero),
        unary_row("heav", Op::Heav, -3, 3, nonzero),
        unary_row("sign", Op::Sign, -3, 3, nonzero),
        unary_row("floor", Op::Floor, -3, 3, away_from_integer),
        unary_row("ceil", Op::Ceil, -3, 3, away_from_integer),
        unary_row("erf", Op::Erf, -2, 2),
        unary_row("erfc", Op::Erfc, -2, 2),
        binary_row("atan2", Op::Atan2, -3, 3, [](double u, double v) { return std::hypot(u, v) > 0.1; }),
        binary_row("mod", Op::Mod, 1, 3,
                   [](double u, double v) { return v > 0.3 && away_from_integer(u / v); }),
        binary_row("min", Op::Min, -3, 3, apart),
        binary_row("max", Op::Max, -3, 3, apart),
        unary_row("lgamma", Op::LGamma, 0.5, 4, [](double u) { return u > 0.2; }),
        table_row("table", Op::Table),
        table_row("table slope", Op::TableSlope),
        bessel_row("besselj", Op::BesselJ),
        bessel_row("bessely", Op::BesselY),
    };
}

double central_difference(const ExprPool& pool, NodeId e, double* y, int slot, double t) {
    const double saved = y[slot];
    const double h = 1e-6 * (1.0 + std::fabs(saved));
    y[slot] = saved + h;
    const double up = pool.evaluate(e, y, nullptr, t);
    y[slot] = saved - h;
    const double down = pool.evaluate(e, y, nullptr, t);
    y[slot] = saved;
    return (up - down) / (2.0 * h);
}

} // namespace

TEST_CASE("derivative of every operation matches central differences", "[symbolic][derivative]") {
    std::set<Op> covered;
    for (const Row& row : rows()) {
        ExprPool pool;
        const NodeId x = pool.state(0);
        const NodeId w = pool.state(1);
        const NodeId e = row.build(pool, x, w);
        covered.insert(pool.node(e).op);
        const NodeId dx = pool.derivative(e, x);
        const NodeId dw = pool.derivative(e, w);
        std::mt19937_64 rng(12345);
        std::uniform_real_distribution<double> dist(row.lo, row.hi);
        int checked = 0;
        for (int attempt = 0; attempt < 2000 && checked < 200; ++attempt) {
            double y[2] = {dist(rng), dist(rng)};
            if (!row.valid(y[0], y[1])) continue;
            // a finite difference straddling a kink is meaningless: require validity at both ends
            const double hx = 1e-6 * (1.0 + std::fabs(y[0])), hw = 1e-6 * (1.0 + std::fabs(y[1]));
            if (!row.valid(y[0] + hx, y[1]) || !row.valid(y[0] - hx, y[1]) || !row.valid(y[0], y[1] + hw) ||
                !row.valid(y[0], y[1] - hw))
                continue;
            ++checked;
            const double sym_x = pool.evaluate(dx, y, nullptr, 0.0);
            const double sym_w = pool.evaluate(dw, y, nullptr, 0.0);
            const double fd_x = central_difference(pool, e, y, 0, 0.0);
            const double fd_w = central_difference(pool, e, y, 1, 0.0);
            INFO(row.what << " at x=" << y[0] << " w=" << y[1] << "  d/dx = " << pool.to_string(dx));
            CHECK(sym_x == Approx(fd_x).epsilon(1e-6).margin(1e-7));
            CHECK(sym_w == Approx(fd_w).epsilon(1e-6).margin(1e-7));
        }
        INFO(row.what);
        CHECK(checked >= 100);
    }
    // every operation but the leaves appears at the top of some row
    for (int op = static_cast<int>(Op::Neg); op <= static_cast<int>(Op::BesselY); ++op) {
        INFO("operation " << bif::sym::spelling(static_cast<Op>(op)));
        CHECK(covered.count(static_cast<Op>(op)) == 1);
    }
}

TEST_CASE("derivatives with respect to a parameter and to time", "[symbolic][derivative]") {
    ExprPool pool;
    const NodeId y0 = pool.state(0);
    const NodeId a = pool.param(0);
    const NodeId t = pool.time();
    // f = a sin(t) y0 + a^2 t
    const NodeId f =
        pool.binary(Op::Add, pool.binary(Op::Mul, pool.binary(Op::Mul, a, pool.unary(Op::Sin, t)), y0),
                    pool.binary(Op::Mul, pool.binary(Op::Pow, a, pool.constant(2.0)), t));
    const NodeId df_da = pool.derivative(f, a);
    const NodeId df_dt = pool.derivative(f, t);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> dist(-2, 2);
    for (int i = 0; i < 100; ++i) {
        double y[1] = {dist(rng)};
        double p[1] = {dist(rng)};
        const double tv = dist(rng);
        const double h = 1e-6;
        double p_up[1] = {p[0] + h}, p_down[1] = {p[0] - h};
        const double fd_a = (pool.evaluate(f, y, p_up, tv) - pool.evaluate(f, y, p_down, tv)) / (2 * h);
        const double fd_t = (pool.evaluate(f, y, p, tv + h) - pool.evaluate(f, y, p, tv - h)) / (2 * h);
        CHECK(pool.evaluate(df_da, y, p, tv) == Approx(fd_a).epsilon(1e-6).margin(1e-7));
        CHECK(pool.evaluate(df_dt, y, p, tv) == Approx(fd_t).epsilon(1e-6).margin(1e-7));
    }
    CHECK(pool.derivative(f, pool.state(1)) == pool.constant(0.0));
    CHECK(pool.derivative(pool.param(3), pool.param(3)) == pool.constant(1.0));
}

TEST_CASE("derivative rejects a variable that is not a leaf", "[symbolic][derivative]") {
    ExprPool pool;
    const NodeId e = pool.unary(Op::Sin, pool.state(0));
    CHECK_THROWS(pool.derivative(e, e));
}

TEST_CASE("lgamma's derivative is the digamma function", "[symbolic][derivative]") {
    ExprPool pool;
    const NodeId x = pool.state(0);
    const NodeId psi = pool.derivative(pool.unary(Op::LGamma, x), x);
    const double gamma = 0.57721566490153286;
    double h9 = 0.0;
    for (int k = 1; k <= 9; ++k)
        h9 += 1.0 / k;
    // A&S 6.3.2-6.3.4 and the recurrence psi(x+1) = psi(x) + 1/x
    const struct {
        double x, psi;
    } rows[] = {{1.0, -gamma},
                {0.5, -gamma - 2.0 * std::log(2.0)},
                {-0.5, -gamma - 2.0 * std::log(2.0) + 2.0},
                {10.0, h9 - gamma},
                {0.25, -gamma - M_PI / 2 - 3.0 * std::log(2.0)}};
    for (const auto& r : rows) {
        INFO("x=" << r.x);
        const double y[1] = {r.x};
        CHECK(pool.evaluate(psi, y, nullptr, 0.0) == Approx(r.psi).epsilon(1e-12).margin(1e-12));
    }
}
