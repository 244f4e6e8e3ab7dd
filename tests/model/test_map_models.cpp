// Maps in the model language: the forms that make a file a map (x(t+1)=..., or x'=... with
// `@ meth=discrete`, as XPPAUT 6.11 reads them), mixed forms, and the next-value formulas with user
// functions, derived parameters and a parameter without a value, evaluated by hand.
#include "model_test_support.h"

#include <catch2/catch.hpp>

using namespace bif::model;
using bif::model::test::all_diagnostics;
using bif::model::test::find_diagnostic;

namespace {

Model load(const std::string& text) {
    ParseResult r = parse_model(text, "m.ode");
    INFO(all_diagnostics(r.diagnostics));
    REQUIRE(r.model);
    return std::move(*r.model);
}

} // namespace

TEST_CASE("the forms that make a model a map", "[model][maps]") {
    CHECK(load("x'=-x\n").kind == ModelKind::Flow);
    CHECK(load("x(t+1)=x/2\n").is_map());
    CHECK(load("x'=x/2\n@ meth=discrete\n").is_map());
    CHECK(load("dx/dt=x/2\n@ METH=Disc\n").is_map());
    CHECK_FALSE(load("x'=x/2\n@ meth=rk4\n").is_map());
    // mixed: in a map x' is the next value too (XPPAUT 6.11)
    const Model mixed = load("x(t+1)=x/2\ny'=y+x\n");
    CHECK(mixed.is_map());
    CHECK(mixed.num_states() == 2);
}

TEST_CASE("a map's next values use functions, derived parameters and t", "[model][maps]") {
    const Model m = load("par r=3.2, q\n!s=r/2\nf(u)=2*s*u*(1-u)+q\nx(t+1)=f(x)+t\ninit x=0.25\n");
    REQUIRE(m.is_map());
    REQUIRE(m.num_parameters() == 2);
    CHECK(m.parameters[1].value == 0.0); // `par q` without a value
    const double y[1] = {0.25};
    const double p[3] = {3.2, 0.0, 1.6}; // r, q, then the derived s
    CHECK(m.pool.evaluate(m.states[0].rhs, y, p, 7.0) == Approx(3.2 * 0.25 * 0.75 + 7.0).epsilon(1e-15));
}

TEST_CASE("a map gives the next value only", "[model][maps]") {
    const ParseResult r = parse_model("x(t+2)=x\n", "m.ode");
    const Diagnostic* d = find_diagnostic(r.diagnostics, "E-map-shift");
    REQUIRE(d);
    CHECK(d->line == 1);
}
