// (formula, value) tables evaluated through the resolved model. Ordinary values come from the
// same computation written in C++; XPPAUT's quirks from runs of XPPAUT 6.11 (`aux` columns of
// output.dat at t=0, the same models test_model_vs_xppaut runs again where xppaut is installed).
#include "model_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

using namespace bif::model;
using bif::model::test::all_diagnostics;
using bif::model::test::aux_named;
using bif::model::test::evaluate_at_start;

namespace {

constexpr double pi = std::numbers::pi;

// Value of `aux v=<formula>` at t=0 in a model with a=2, b=3, c=0.5 and x(0)=1.5.
double value_of(const std::string& formula, const std::string& extra_lines = "") {
    const std::string text =
        "par a=2, b=3, c=0.5\nx'=0\ninit x=1.5\n" + extra_lines + "aux v=" + formula + "\n";
    const ParseResult r = parse_model(text, "values.ode");
    INFO(all_diagnostics(r.diagnostics));
    REQUIRE(r.model);
    const NamedFormula* v = aux_named(*r.model, "v");
    REQUIRE(v);
    return evaluate_at_start(*r.model, v->formula);
}

struct Row {
    const char* formula;
    double expected;
};

void check_rows(std::initializer_list<Row> rows, const std::string& extra = "") {
    for (const Row& row : rows) {
        INFO(row.formula);
        CHECK(value_of(row.formula, extra) == Approx(row.expected).margin(1e-14));
    }
}

} // namespace

TEST_CASE("arithmetic and functions", "[model][values]") {
    const double a = 2, b = 3, c = 0.5, x = 1.5;
    check_rows({
        {"1+2*3", 7},
        {"(1+2)*3", 9},
        {"10-4-3", 3},
        {"8/2/2", 2},
        {"2^10", 1024},
        {"2**3", 8},
        {"-a+b", -a + b},
        {"a*b/c", a * b / c},
        {"x^-2", std::pow(x, -2)},
        {"x*-a", -x * a},
        {"a - -b", a + b},
        {"sin(x)+cos(x)*tan(c)", std::sin(x) + std::cos(x) * std::tan(c)},
        {"asin(c)+acos(c)+atan(x)", std::asin(c) + std::acos(c) + std::atan(x)},
        {"atan2(a,-b)", std::atan2(a, -b)},
        {"sinh(c)*cosh(c)-tanh(x)", std::sinh(c) * std::cosh(c) - std::tanh(x)},
        {"exp(c)+ln(a)+log(b)+log10(1000)", std::exp(c) + std::log(a) + std::log(b) + 3},
        {"sqrt(b)*abs(-x)", std::sqrt(b) * x},
        {"min(a,b)+max(a,b)", 5},
        {"flr(-x)+ceil(x)", -2 + 2},
        {"pow(a,b)", 8},
        {"erf(c)+erfc(x)", std::erf(c) + std::erfc(x)},
        {"pi", pi},
        {"t", 0},
        {"1.+.5+1e-3+2.5E+2", 1 + 0.5 + 1e-3 + 250},
        {"1 + 2 * 3", 7},
    });
}

TEST_CASE("XPPAUT's precedence and piecewise functions (values from XPPAUT 6.11)", "[model][values]") {
    check_rows({
        {"1+1>2", 1},     {"2^3^2", 64},     {"-2^2", -4},   {"3<2<1", 1}, {"mod(-1,3)", 2},  {"heav(0)", 1},
        {"sign(0)", 0},   {"2*3>5", 0},      {"1&2*0", 0},   {"5-2-1", 2}, {"2+not(0)*3", 5}, {"1-1|1", 1},
        {"-1>0", -1},     {"1-2>0", 0},      {"(1+1)>2", 0}, {"2*2^2", 8}, {"-2*3", -6},      {"1|0&0", 1},
        {"0&0|1", 1},     {"min(1,2)^2", 1}, {"2^(1>0)", 2}, {"a*b>c", 2}, {"mod(7,3)", 1},   {"heav(-1)", 0},
        {"sign(-2)", -1}, {"a!=b", 1},       {"a==2", 1},    {"a>=2", 1},  {"a<=1", 0},       {"not(a)", 0},
    });
}

TEST_CASE("if/then/else: only the taken branch counts", "[model][values]") {
    check_rows({
        {"if(x>1)then(a)else(b)", 2},
        {"if(x<1)then(a)else(b)", 3},
        {"if(1)then(2)else(3)+1", 3},
        {"1+if(0)then(2)else(3)*2", 7},
        {"if(0)then(ln(-1))else(5)", 5},
        {"if(a)then(if(0)then(1)else(2))else(3)", 2},
    });
}

TEST_CASE("names are case-insensitive, spelled as first written", "[model][values]") {
    check_rows({{"A*B", 6}, {"X", 1.5}, {"SIN(PI/2)", 1}, {"Exp(0)", 1}});
    const ParseResult r = parse_model("PAR Alpha=2\nVm'=-ALPHA*vm\nINIT vM=3\nAUX W=alpha*vm\n", "m.ode");
    REQUIRE(r.model);
    CHECK(r.model->states[0].name == "Vm");
    CHECK(r.model->state_index("VM") == 0);
    CHECK(r.model->parameter_index("alpha") == 0);
    CHECK(evaluate_at_start(*r.model, r.model->aux[0].formula) == 6);
    CHECK(evaluate_at_start(*r.model, r.model->states[0].rhs) == -6);
}

TEST_CASE("user functions: shadowing, later definitions, nesting", "[model][values]") {
    const std::string functions = "f(x)=x^2\n"
                                  "g(p,q)=f(p)+q\n"
                                  "h(a)=a+1\n"        // the argument shadows the parameter a=2
                                  "k(z)=later(z)*2\n" // calls a function defined further down
                                  "later(u)=u+b\n"
                                  "tf(u)=u*t\n";
    check_rows({{"g(2,1)", 5},
                {"h(10)", 11},
                {"k(1)", 8},
                {"f(f(f(2)))", 256},
                {"g(g(1,1),f(a))", 8},
                {"f(x)", 2.25},
                {"tf(3)", 0}},
               functions);
}

TEST_CASE("nested calls are built once per argument list, not once per path", "[model][values]") {
    // Each level calls the previous one three times: 3^40 paths, a linear number of distinct nodes.
    std::string lines = "f0(x)=x+1\n";
    for (int i = 1; i <= 40; ++i) {
        const std::string prev = std::string("f").append(std::to_string(i - 1)).append("(x)");
        lines +=
            std::string("f").append(std::to_string(i)).append("(x)=") + prev + "*" + prev + "/" + prev + "\n";
    }
    const ParseResult r = parse_model("x'=0\n" + lines + "aux deep=f40(x)\naux shallow=f3(x)\n", "m.ode");
    REQUIRE(r.model);
    CHECK(r.model->pool.size() < 1000);
    CHECK(evaluate_at_start(*r.model, r.model->aux[1].formula) == Approx(1.0));
}

TEST_CASE("fixed variables are inlined in file order", "[model][values]") {
    check_rows({{"w2", 4}, {"w1*10", 30}}, "w1=x*2\nw2=w1+1\n");
    // used before its definition: XPPAUT would read last step's value; Bifscope uses the definition
    const ParseResult r = parse_model("x'=u\nu=v+1\nv=2\naux q=u\n", "m.ode");
    REQUIRE(r.model);
    CHECK(test::find_diagnostic(r.diagnostics, "W-fixed-order"));
    CHECK(evaluate_at_start(*r.model, r.model->states[0].rhs) == 3);
    REQUIRE(r.model->fixed.size() == 2);
    CHECK(r.model->fixed[0].name == "u");
}

TEST_CASE("derived parameters and numbers", "[model][values]") {
    check_rows({{"d2", 7}, {"n*d1", 24}}, "!d1=a*b\n!d2=d1+1\nnumber n=4\n");
}

TEST_CASE("arrays, continuation lines and done", "[model][values]") {
    const std::string text = "y[1..3]'=-y[j]\n"
                             "init y[1..3]=[j]\n"
                             "aux s=y1+y2+\\\n"
                             "  y3\n"
                             "done\n"
                             "aux ignored=1\n";
    const ParseResult r = parse_model(text, "m.ode");
    INFO(all_diagnostics(r.diagnostics));
    REQUIRE(r.model);
    REQUIRE(r.model->states.size() == 3);
    CHECK(r.model->states[2].name == "y3");
    CHECK(r.model->aux.size() == 1);
    CHECK(evaluate_at_start(*r.model, r.model->aux[0].formula) == 6);
    CHECK(evaluate_at_start(*r.model, r.model->states[1].rhs) == -2);
}
