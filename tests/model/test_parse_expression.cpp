// Study formulas parsed in a model's context: every kind of name, user functions, errors with
// columns in the formula's own text.
#include "model_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif::model;
using bif::model::test::all_diagnostics;
using bif::model::test::evaluate_at_start;

namespace {

Model context_model() {
    ParseResult r = parse_model("par a=2, b=3\n"
                                "number n=10\n"
                                "!d=a*b\n"
                                "f(u)=u*n+w\n"
                                "w=x+1\n"
                                "x'=-x\ny'=x\n"
                                "init x=0.5, y=-1\n"
                                "aux energy=x^2\n",
                                "ctx.ode");
    INFO(all_diagnostics(r.diagnostics));
    REQUIRE(r.model);
    return std::move(*r.model);
}

} // namespace

TEST_CASE("study formulas see states, parameters, derived, numbers, fixed, functions, t, pi",
          "[model][expression]") {
    Model m = context_model();
    const struct {
        const char* text;
        double expected;
    } rows[] = {
        {"x", 0.5},        {"Y*a", -2},       {"d", 6},   {"n", 10},    {"w", 1.5},
        {"f(2)", 21.5},    {"t+pi", M_PI},    {"x>0", 1}, {"1+1>2", 1}, {"if(y<0)then(b)else(a)", 3},
        {" x + y ", -0.5}, {"max(x,y)", 0.5},
    };
    for (const auto& row : rows) {
        INFO(row.text);
        const ExpressionResult e = parse_expression(m, row.text);
        INFO(all_diagnostics(e.diagnostics));
        REQUIRE(e.node);
        CHECK(evaluate_at_start(m, *e.node) == Approx(row.expected));
    }
}

TEST_CASE("study formula errors carry columns in the formula", "[model][expression]") {
    Model m = context_model();
    const struct {
        const char* text;
        int column;
        const char* code;
    } rows[] = {
        {"x+zz", 3, "E-unknown-name"},   {"energy*2", 1, "E-aux-reference"}, {"f(1,2)", 1, "E-arity"},
        {"x+", 3, "E-expected-operand"}, {"", 1, "E-empty-formula"},         {"(x", 1, "E-unbalanced"},
        {"delay(x,1)", 1, "E-delay"},    {"a(1)", 1, "E-not-a-function"},
    };
    for (const auto& row : rows) {
        INFO(row.text);
        const ExpressionResult e = parse_expression(m, row.text);
        CHECK_FALSE(e.node);
        REQUIRE_FALSE(e.diagnostics.empty());
        CHECK(e.diagnostics[0].code == row.code);
        CHECK(e.diagnostics[0].line == 1);
        CHECK(e.diagnostics[0].column == row.column);
        CHECK(e.diagnostics[0].source_line == row.text);
    }
}

TEST_CASE("a precedence warning does not stop a study formula", "[model][expression]") {
    Model m = context_model();
    const ExpressionResult e = parse_expression(m, "x*2>0");
    REQUIRE(e.node);
    REQUIRE(e.diagnostics.size() == 1);
    CHECK(e.diagnostics[0].code == "W-precedence");
    CHECK(e.diagnostics[0].column == 4);
    CHECK(evaluate_at_start(m, *e.node) == 0.5); // x*(2>0), not (x*2)>0
}
