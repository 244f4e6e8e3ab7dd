// The builders: interning and the local simplifications, as tables.
#include "engine/symbolic/expr.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

using bif::sym::ExprPool;
using bif::sym::NodeId;
using bif::sym::Op;

TEST_CASE("the same expression built twice is the same node", "[symbolic][intern]") {
    ExprPool pool;
    auto build = [&] {
        const NodeId x = pool.state(0);
        const NodeId a = pool.param(2);
        return pool.binary(Op::Add, pool.unary(Op::Sin, pool.binary(Op::Mul, a, x)), pool.time());
    };
    const NodeId first = build();
    const std::size_t size_after_first = pool.size();
    const NodeId second = build();
    CHECK(first == second);
    CHECK(pool.size() == size_after_first);
    CHECK(pool.state(0) != pool.state(1));
    CHECK(pool.state(1) != pool.param(1));
    CHECK(pool.constant(2.5) == pool.constant(2.5));
    CHECK(pool.constant(2.5) != pool.constant(-2.5));
    CHECK(pool.binary(Op::Sub, pool.state(0), pool.state(1)) !=
          pool.binary(Op::Sub, pool.state(1), pool.state(0)));
}

TEST_CASE("node 0 is the constant zero", "[symbolic][intern]") {
    ExprPool pool;
    CHECK(pool.is_constant(0, 0.0));
    CHECK(pool.constant(0.0) == 0);
}

TEST_CASE("identities of + - * / ^ and not-a-simplification cases", "[symbolic][fold]") {
    ExprPool pool;
    const NodeId x = pool.state(0);
    const NodeId y = pool.param(1);
    const NodeId zero = pool.constant(0.0);
    const NodeId one = pool.constant(1.0);
    const NodeId two = pool.constant(2.0);
    const NodeId neg_x = pool.unary(Op::Neg, x);
    struct Row {
        const char* what;
        NodeId built;
        NodeId expected;
    };
    const Row rows[] = {
        {"x+0", pool.binary(Op::Add, x, zero), x},
        {"0+x", pool.binary(Op::Add, zero, x), x},
        {"x-0", pool.binary(Op::Sub, x, zero), x},
        {"0-x", pool.binary(Op::Sub, zero, x), neg_x},
        {"x*1", pool.binary(Op::Mul, x, one), x},
        {"1*x", pool.binary(Op::Mul, one, x), x},
        {"x*0", pool.binary(Op::Mul, x, zero), zero},
        {"0*x", pool.binary(Op::Mul, zero, x), zero},
        {"x/1", pool.binary(Op::Div, x, one), x},
        {"x^1", pool.binary(Op::Pow, x, one), x},
        {"x^0", pool.binary(Op::Pow, x, zero), one},
        {"1^x", pool.binary(Op::Pow, one, x), one},
        {"--x", pool.unary(Op::Neg, neg_x), x},
        {"if(1,x,y)", pool.if_then_else(one, x, y), x},
        {"if(0,x,y)", pool.if_then_else(zero, x, y), y},
        {"if(2,x,y)", pool.if_then_else(two, x, y), x},
        {"if(x,y,y)", pool.if_then_else(x, y, y), y},
        {"2+3", pool.binary(Op::Add, two, pool.constant(3.0)), pool.constant(5.0)},
        {"2^3", pool.binary(Op::Pow, two, pool.constant(3.0)), pool.constant(8.0)},
        {"sin(0)", pool.unary(Op::Sin, zero), zero},
        {"-(2)", pool.unary(Op::Neg, two), pool.constant(-2.0)},
        {"mod(-1,3)", pool.binary(Op::Mod, pool.constant(-1.0), pool.constant(3.0)), pool.constant(2.0)},
        {"heav(0)", pool.unary(Op::Heav, zero), one},
        {"sign(0)", pool.unary(Op::Sign, zero), zero},
        {"2<3", pool.binary(Op::Lt, two, pool.constant(3.0)), one},
        {"2==3", pool.binary(Op::Eq, two, pool.constant(3.0)), zero},
        {"not(2)", pool.unary(Op::Not, two), zero},
        {"if(1<2, x, y)", pool.if_then_else(pool.binary(Op::Lt, one, two), x, y), x},
    };
    for (const Row& r : rows) {
        INFO(r.what << " built as " << pool.to_string(r.built));
        CHECK(r.built == r.expected);
    }
}

TEST_CASE("builders keep what is not an identity", "[symbolic][fold]") {
    ExprPool pool;
    const NodeId x = pool.state(0);
    const NodeId two = pool.constant(2.0);
    const NodeId kept[] = {
        pool.binary(Op::Add, x, two), pool.binary(Op::Mul, x, two),
        pool.binary(Op::Pow, x, two), pool.binary(Op::Div, two, x),
        pool.binary(Op::Pow, two, x), pool.unary(Op::Neg, x),
        pool.unary(Op::Sin, x),       pool.if_then_else(x, two, pool.constant(3.0)),
    };
    for (NodeId id : kept) {
        INFO(pool.to_string(id));
        CHECK(pool.node(id).op != Op::Constant);
        CHECK(id != x);
    }
}

TEST_CASE("arity and make agree; make rejects a wrong argument count", "[symbolic]") {
    ExprPool pool;
    CHECK(bif::sym::arity(Op::Sin) == 1);
    CHECK(bif::sym::arity(Op::Atan2) == 2);
    CHECK(bif::sym::arity(Op::IfThenElse) == 3);
    CHECK(bif::sym::arity(Op::Time) == 0);
    CHECK(std::string(bif::sym::spelling(Op::IfThenElse)) == "if");
    CHECK_THROWS(pool.make(Op::Sin, {pool.state(0), pool.state(1)}));
    CHECK(pool.make(Op::Max, {pool.state(0), pool.state(1)}) ==
          pool.binary(Op::Max, pool.state(0), pool.state(1)));
}

TEST_CASE("to_string prints slots and parenthesises fully", "[symbolic]") {
    ExprPool pool;
    const NodeId e = pool.binary(Op::Mul, pool.binary(Op::Add, pool.state(0), pool.param(3)),
                                 pool.unary(Op::Exp, pool.time()));
    CHECK(pool.to_string(e) == "((y[0] + p[3]) * exp(t))");
}

TEST_CASE("depends_on_state_or_time", "[symbolic]") {
    ExprPool pool;
    const NodeId p = pool.binary(Op::Mul, pool.param(0), pool.constant(3.0));
    CHECK_FALSE(pool.depends_on_state_or_time(p));
    CHECK(pool.depends_on_state_or_time(pool.binary(Op::Add, p, pool.time())));
    CHECK(pool.depends_on_state_or_time(pool.unary(Op::Cos, pool.binary(Op::Add, p, pool.state(2)))));
}
