// The recursive evaluator's semantics (XPPAUT's), checked against values computed by hand from the
// definitions, and the laziness of if().
#include "engine/symbolic/expr.h"

#include <catch2/catch.hpp>
#include <cmath>

using bif::sym::ExprPool;
using bif::sym::NodeId;
using bif::sym::Op;

TEST_CASE("XPPAUT semantics of the piecewise operations", "[symbolic][evaluate]") {
    ExprPool pool;
    const NodeId a = pool.state(0);
    const NodeId b = pool.state(1);
    struct Row {
        Op op;
        double a, b, expected;
    };
    const Row rows[] = {
        {Op::Heav, 0.0, 0, 1.0},   {Op::Heav, -1e-300, 0, 0.0},
        {Op::Heav, 2.0, 0, 1.0},   {Op::Sign, 0.0, 0, 0.0},
        {Op::Sign, -3.0, 0, -1.0}, {Op::Sign, 0.5, 0, 1.0},
        {Op::Mod, -1.0, 3, 2.0},   {Op::Mod, 7.0, 3, 1.0},
        {Op::Mod, 7.5, -2, -0.5},  {Op::Floor, -1.5, 0, -2.0},
        {Op::Ceil, -1.5, 0, -1.0}, {Op::Lt, 1, 2, 1},
        {Op::Lt, 2, 2, 0},         {Op::Le, 2, 2, 1},
        {Op::Gt, 3, 2, 1},         {Op::Ge, 1, 2, 0},
        {Op::Eq, 2, 2, 1},         {Op::Ne, 2, 2, 0},
        {Op::And, 0.5, -2, 1},     {Op::And, 0.5, 0, 0},
        {Op::Or, 0, -2, 1},        {Op::Or, 0, 0, 0},
        {Op::Not, 0, 0, 1},        {Op::Not, -0.1, 0, 0},
        {Op::Min, 1, -2, -2},      {Op::Max, 1, -2, 1},
        {Op::Abs, -2.5, 0, 2.5},   {Op::Atan2, 1, -1, 3 * M_PI / 4},
        {Op::Pow, 2, 10, 1024},    {Op::Log, M_E, 0, 1},
        {Op::Log10, 1000, 0, 3},
    };
    for (const Row& r : rows) {
        ExprPool fresh;
        const NodeId x = fresh.state(0);
        const NodeId w = fresh.state(1);
        const NodeId e = bif::sym::arity(r.op) == 1 ? fresh.unary(r.op, x) : fresh.binary(r.op, x, w);
        const double y[2] = {r.a, r.b};
        INFO(bif::sym::spelling(r.op) << "(" << r.a << ", " << r.b << ")");
        CHECK(fresh.evaluate(e, y, nullptr, 0.0) == Approx(r.expected).margin(1e-15));
        // folding the same operation on constants gives the same value
        const NodeId c = bif::sym::arity(r.op) == 1
                             ? fresh.unary(r.op, fresh.constant(r.a))
                             : fresh.binary(r.op, fresh.constant(r.a), fresh.constant(r.b));
        REQUIRE(fresh.node(c).op == Op::Constant);
        CHECK(fresh.node(c).value == fresh.evaluate(e, y, nullptr, 0.0));
    }
    (void)a;
    (void)b;
}

TEST_CASE("only the taken branch of if() is evaluated", "[symbolic][evaluate]") {
    ExprPool pool;
    const NodeId x = pool.state(0);
    // if(x > 0, sqrt(x), log(x)): each branch alone is NaN on the other side
    const NodeId e = pool.if_then_else(pool.binary(Op::Gt, x, pool.constant(0.0)), pool.unary(Op::Sqrt, x),
                                       pool.unary(Op::Log, pool.unary(Op::Neg, x)));
    const double pos[1] = {4.0};
    const double neg[1] = {-M_E};
    CHECK(pool.evaluate(e, pos, nullptr, 0.0) == 2.0);
    CHECK(pool.evaluate(e, neg, nullptr, 0.0) == Approx(1.0));
}

TEST_CASE("leaves read their slots", "[symbolic][evaluate]") {
    ExprPool pool;
    const NodeId e = pool.binary(Op::Add, pool.binary(Op::Mul, pool.state(1), pool.param(2)), pool.time());
    const double y[2] = {100.0, 3.0};
    const double p[3] = {0.0, 0.0, 5.0};
    CHECK(pool.evaluate(e, y, p, 0.25) == 15.25);
}

TEST_CASE("table lookups: XPPAUT's interpolation, folded on constants, shared tables", "[symbolic][table]") {
    ExprPool pool;
    // y = x^2 at -1, 0, 1, 2
    const std::uint32_t t = pool.add_table({-1.0, 2.0, {1.0, 0.0, 1.0, 4.0}});
    CHECK(pool.add_table({-1.0, 2.0, {1.0, 0.0, 1.0, 4.0}}) == t); // stored once
    CHECK_THROWS(pool.add_table({0.0, 1.0, {1.0}}));
    CHECK_THROWS(pool.add_table({1.0, 0.0, {1.0, 2.0}}));
    CHECK_THROWS(pool.make(Op::Table, {pool.state(0)}, t + 1));
    const NodeId x = pool.state(0);
    const NodeId f = pool.table_lookup(t, x);
    const NodeId slope = pool.make(Op::TableSlope, {x}, t);
    const struct {
        double x, value, slope;
    } rows[] = {
        {-1.0, 1.0, -1.0}, {-0.5, 0.5, -1.0}, {0.25, 0.25, 1.0}, {1.5, 2.5, 3.0},
        {2.0, 4.0, 3.0},   {3.0, 7.0, 3.0},   {-2.0, 2.0, -1.0}, {-1.5, 1.5, -1.0},
    };
    for (const auto& r : rows) {
        INFO("x=" << r.x);
        const double y[1] = {r.x};
        CHECK(pool.evaluate(f, y, nullptr, 0.0) == Approx(r.value).epsilon(1e-15));
        CHECK(pool.evaluate(slope, y, nullptr, 0.0) == r.slope);
        const NodeId folded = pool.table_lookup(t, pool.constant(r.x));
        REQUIRE(pool.node(folded).op == Op::Constant);
        CHECK(pool.node(folded).value == pool.evaluate(f, y, nullptr, 0.0));
    }
    // substitution keeps the table (the node's index), as the tangent systems need
    const NodeId moved = pool.substitute(f, [&](const bif::sym::Node& n) -> std::optional<NodeId> {
        if (n.op == Op::State) return pool.state(1);
        return std::nullopt;
    });
    CHECK(pool.node(moved).op == Op::Table);
    CHECK(pool.node(moved).index == t);
    CHECK(pool.to_string(f) == "table(0, y[0])");
}
