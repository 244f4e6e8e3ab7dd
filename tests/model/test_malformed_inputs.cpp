// A table of malformed (or XPPAUT-incompatible) inputs, each with the diagnostic it must produce
// and where: (source, line, column, code). Errors must leave the result without a model.
#include "model_test_support.h"

#include <catch2/catch.hpp>

using namespace bif::model;
using bif::model::test::all_diagnostics;

namespace {

struct Row {
    std::string source;
    int line;
    int column;
    const char* code;
};

std::string deeply_nested(int levels) {
    return "x'=" + std::string(levels, '(') + "1" + std::string(levels, ')');
}

// a0=x, a1=a0+1, ...: after inlining, a5000 is 5001 levels high, one more than allowed; it is
// defined on line 5002 and its `+` is in column 12.
std::string long_fixed_chain() {
    std::string text = "x'=a5100\na0=x\n";
    for (int i = 1; i <= 5100; ++i)
        text.append("a").append(std::to_string(i)).append("=a").append(std::to_string(i - 1)).append("+1\n");
    return text;
}

const std::vector<Row>& rows() {
    static const std::vector<Row> table = {
        // formulas
        {"x'=1+", 1, 6, "E-expected-operand"},
        {"x'=2*/3", 1, 6, "E-expected-operand"},
        {"x'=(1+2", 1, 4, "E-unbalanced"},
        {"x'=1+2)", 1, 7, "E-unbalanced"},
        {"x'=max(1,2", 1, 7, "E-unbalanced"},
        {"x'=", 1, 4, "E-empty-formula"},
        {"x'=   ", 1, 7, "E-empty-formula"},
        {"x'=1.2.3", 1, 4, "E-number"},
        {"x'=2x", 1, 4, "E-number"},
        {"x'=1e", 1, 4, "E-number"},
        {"x'=1\ny'=1e999", 2, 4, "E-number"},
        {"x'=a$b", 1, 5, "E-character"},
        {"x'=a.b", 1, 5, "E-character"},
        {"x'=1,2", 1, 5, "E-trailing"},
        {"x'=sin(x)cos(x)", 1, 10, "E-trailing"},
        {"x'=exp=1", 1, 7, "E-trailing"},
        {"x'=if(x>0)(1)else(2)", 1, 11, "E-then"},
        {"x'=if(x>0)then(1)", 1, 18, "E-else"},
        {"x'=(1,2)", 1, 6, "E-syntax"},
        {deeply_nested(250), 1, 204, "E-nesting"},
        {long_fixed_chain(), 5002, 12, "E-too-deep"},
        // names
        {"x'=foo", 1, 4, "E-unknown-name"},
        {"x'=e", 1, 4, "E-unknown-name"},
        {"x'=1\nf(x)=x\ny'=f", 3, 4, "E-unknown-name"},
        {"x'=foo(1)", 1, 4, "E-unknown-function"},
        {"x'=1\npar a=1\ny'=a(1)", 3, 4, "E-not-a-function"},
        {"x'=sin(1,2)", 1, 4, "E-arity"},
        {"f(x,y)=x+y\nx'=f(1)", 2, 4, "E-arity"},
        {"x'=1\nx'=2", 2, 1, "E-duplicate"},
        {"x'=1\npar x=1", 2, 5, "E-duplicate"},
        {"x'=t\nt=1", 2, 1, "E-reserved"},
        {"x'=1\nsin=2", 2, 1, "E-reserved"},
        {"x'=1\naux z=x\naux w=z", 3, 7, "E-aux-reference"},
        {"x'=1\ninit y=1", 2, 6, "E-init-target"},
        // functions, fixed variables, derived parameters
        {"f(x)=f(x)+1\nx'=f(1)", 1, 1, "E-recursion"},
        {"f(x)=g(x)\ng(x)=f(x)\nx'=1", 2, 1, "E-recursion"},
        {"x'=1\nf(x,x)=x", 2, 5, "E-lhs"},
        {"x'=1\nx(1)=2", 2, 3, "E-lhs"},
        {"x'=1\nf(a,b,c,d,e,f1,g,h,i,j)=1", 2, 1, "E-too-many-args"},
        {"a=b+1\nb=a*2\nx'=a", 2, 3, "E-fixed-cycle"},
        {"x'=1\n!b=x", 2, 4, "E-derived-state"},
        {"x'=1\n!b=t", 2, 4, "E-derived-state"},
        {"x'=1\npar a=1\n!b=c+a\n!c=a", 3, 4, "E-derived-order"},
        // events
        {"x'=1\nglobal 1 x-1 {y=0}", 2, 15, "E-reset-target"},
        {"x'=1\n!c=1\nglobal 1 x-1 {c=0}", 3, 15, "E-reset-target"},
        {"x'=1\nglobal 2 x-1 {x=0}", 2, 8, "E-event-sign"},
        {"x'=1\nglobal 1 x-1", 2, 13, "E-event-syntax"},
        {"x'=1\nglobal 1 {x-1} {x=0} junk", 2, 22, "E-event-syntax"},
        // statements
        {"'=1", 1, 1, "E-ode-name"},
        {"d/dt=1", 1, 1, "E-ode-name"},
        {"1 x'=1", 1, 1, "E-old-format"},
        {"x'=1\nfoo bar", 2, 1, "E-unknown-statement"},
        {"x'=1\nset s a=1", 2, 5, "E-set-syntax"},
        {"x'=1\npar 1a=2", 2, 5, "E-declaration"},
        {"par a=1", 0, 0, "E-no-ode"},
        {"", 0, 0, "E-no-ode"},
        // arrays
        {"x'=1\nx[1..3]'=-x[j", 2, 12, "E-array"},
        {"x'=1\ny[j]'=1", 2, 2, "E-array"},
        {"x'=1\n%[1..2]\nu[j]'=1", 2, 1, "E-array"},
        {"x'=1\nu[1..n]'=1", 2, 2, "E-array"},
        {"x'=1\nu[1..100000]'=1", 2, 2, "E-array"},
        {"x'=1\nu[1..2]'=u[j-2]", 2, 11, "E-array"},
        // what Bifscope does not do yet
        // a map gives the next value only
        {"x(t+2)=x", 1, 5, "E-map-shift"},
        {"0=x-1", 1, 1, "E-dae"},
        {"x'=1\nsolv x", 2, 1, "E-dae"},
        {"x'=1\nbdry x-1", 2, 1, "E-bvp"},
        {"x'=1\nz(t)=1+int{exp(-t)#x}", 2, 8, "E-volterra"},
        {"x'=1\nvolterra z", 2, 1, "E-volterra"},
        {"x'=1\nmarkov z 2", 2, 1, "E-markov"},
        {"x'=1\nwiener w", 2, 1, "E-wiener"},
        {"x'=delay(x,1)", 1, 4, "E-delay"},
        {"x'=1\ntable f % 10 1 0 t^2", 2, 14, "E-table"},
        {"x'=1\ntable f % 1 0 1 t^2", 2, 11, "E-table"},
        {"x'=1\ntable f % 10 0 1", 2, 7, "E-table"},
        {"x'=1\ntable f % 10 0 1 x", 2, 18, "E-table"},
        {"x'=1\ntable f no_such_file.tab", 2, 9, "E-table"},
        {"x'=1\ntable f @ g.tab", 2, 9, "E-table"},
        {"x'=1\nspecial f=mmult(2,2,w,x)", 2, 21, "E-special"},
        {"x'=1\nspecial f=gill(0,x)", 2, 11, "E-special"},
        {"x'=1\ntable w % 3 -1 1 1\nspecial f=conv(odd,1,1,w,x)", 3, 16, "E-special"},
        {"x'=1\ntable w % 3 -1 1 1\nspecial f=conv(even,2,1,w,x)", 3, 9, "E-special"},
        {"x'=f(x)\ntable w % 3 -1 1 1\nspecial f=conv(even,1,1,w,x)", 1, 4, "E-special"},
        {"x'=1\nexport {x} {y}", 2, 1, "E-export"},
        {"x'=1\nvector v 3", 2, 1, "E-vector"},
        {"x'=1\ngroup g", 2, 1, "E-group"},
        {"x'=1\n#include other.ode", 2, 1, "E-include"},
        {"x'=1\noptions my.opt", 2, 1, "E-options-file"},
        {"x'=ran(1)", 1, 4, "E-random"},
        {"x'=normal(0,1)", 1, 4, "E-random"},
        {"x'=besseli(0,x)", 1, 4, "E-bessel"},
        {"x'=besselj(0)", 1, 4, "E-arity"},
        {"x'=shift(x,1)", 1, 4, "E-shift"},
        {"x'=shift(a,0)\npar a=1", 1, 10, "E-shift"},
        {"x'=shift(x,t)", 1, 12, "E-shift"},
        {"x'=sum(1,a)of(i')\npar a=2", 1, 10, "E-sum"},
        {"x'=sum(1,2)of(sum(1,2)of(i'))", 1, 15, "E-sum"},
        {"x'=i'", 1, 4, "E-sum"},
        {"x'=sum(1,2)(i')", 1, 12, "E-sum"},
        {"x'=sum(1)of(i')", 1, 9, "E-sum"},
        {"x'=sum(1,200000)of(i')", 1, 4, "E-sum"},
        {"x[1..30]'=sum(1,99999)of(i')", 1, 11, "E-sum"},
        // warnings (the model still loads)
        {"x'=1+1>2", 1, 7, "W-precedence"},
        {"x'=1\nabcdefghijkl'=1", 2, 1, "W-long-name"},
        {"x'=1\npar abcdefghijk=1", 2, 5, "W-long-name"},
        {"x'=1\npar a = 1", 2, 7, "W-space-equals"},
        {"x'=1\npar a=2*3", 2, 7, "W-value-prefix"},
        {"x'=1\ninit x=a", 2, 8, "W-value-zero"},
        {"x'=1\nglobal 0 x-1 {x=0}", 2, 8, "W-event-sign-zero"},
        {"x'=1\nglobal 1 x-1 {no_interp}", 2, 15, "W-ignored-reset"},
        {"x'=1\nglobal 1 x-1 {out_put=x}", 2, 15, "W-output-formula"},
        {"x'=1\na z=x", 2, 1, "W-aux-abbreviation"},
        {"x'=1\n@total=10", 2, 1, "W-option-at-space"},
        {"x'=1\n@ total = 10", 2, 1, "W-option-spaces"},
        {"x'=1\n@ total", 2, 3, "W-option-syntax"},
        {"x'=1\n@ frobnicate=1", 2, 3, "W-unknown-option"},
        {"x'=a\na=b\nb=1", 2, 3, "W-fixed-order"},
        {"x'=1\nz=x\naux z=z", 3, 5, "W-duplicate-name"},
        {"x'=1\npar", 2, 1, "W-empty-declaration"},
        {"x'=1\n@ maxstor=100", 2, 3, "N-options-ignored"},
    };
    return table;
}

Severity severity_of(const std::string& code) {
    if (code[0] == 'W') return Severity::Warning;
    if (code[0] == 'N') return Severity::Note;
    return Severity::Error;
}

} // namespace

TEST_CASE("each malformed input yields its diagnostic at its position", "[model][diagnostics]") {
    REQUIRE(rows().size() >= 40);
    for (const Row& row : rows()) {
        INFO("source:\n" << row.source);
        const ParseResult r = parse_model(row.source, "m.ode");
        INFO("diagnostics:\n" << all_diagnostics(r.diagnostics));
        bool found = false;
        for (const Diagnostic& d : r.diagnostics) {
            if (d.code == row.code && d.line == row.line && d.column == row.column) {
                found = true;
                CHECK(d.severity == severity_of(row.code));
                CHECK(!d.message.empty());
                CHECK(d.file == "m.ode");
            }
        }
        CHECK(found);
        CHECK(r.model.has_value() == (severity_of(row.code) != Severity::Error));
    }
}

TEST_CASE("every error code of the table has its own row", "[model][diagnostics]") {
    // The refusals are distinct codes so that a user (and LANGUAGE.md) can look each one up.
    std::vector<std::string> codes;
    for (const Row& row : rows())
        if (std::find(codes.begin(), codes.end(), row.code) == codes.end()) codes.push_back(row.code);
    CHECK(codes.size() >= 60);
}

TEST_CASE("diagnostics are bounded: a flood of errors ends with one E-too-many", "[model][diagnostics]") {
    std::string text = "x'=1\n";
    for (int i = 0; i < 2000; ++i)
        text.append("aux a")
            .append(std::to_string(i))
            .append("=nothing")
            .append(std::to_string(i))
            .append("\n");
    const ParseResult r = parse_model(text, "m.ode");
    CHECK(r.diagnostics.size() == 501);
    CHECK(r.diagnostics.back().code == "E-too-many");
}

TEST_CASE("a file keeps going after errors and reports each one", "[model][diagnostics]") {
    const ParseResult r = parse_model("x'=foo\ny'=1+\nz'=bar(1)\npar a=1\nw'=a", "m.ode");
    CHECK_FALSE(r.model);
    int errors = 0;
    for (const Diagnostic& d : r.diagnostics)
        errors += d.severity == Severity::Error;
    CHECK(errors == 3);
}
