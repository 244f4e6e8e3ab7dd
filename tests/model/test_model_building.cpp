// The resolved Model: slots, initial values, derived parameters, events, options, sets, comments,
// and the diagnostics' text form.
#include "model_test_support.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace bif::model;
using bif::model::test::all_diagnostics;
using bif::model::test::evaluate_at_start;
using bif::model::test::find_diagnostic;

namespace {

Model load(const std::string& text) {
    ParseResult r = parse_model(text, "m.ode");
    INFO(all_diagnostics(r.diagnostics));
    REQUIRE(r.model);
    return std::move(*r.model);
}

int count_code(const std::vector<Diagnostic>& ds, const std::string& code) {
    int n = 0;
    for (const auto& d : ds)
        n += d.code == code;
    return n;
}

} // namespace

TEST_CASE("states, parameters and initial values", "[model][build]") {
    const Model m = load("# Morris-Lecar-like\n"
                         "par gca=4.4, gk=8 ,vk=-84 iapp\n"
                         "param phi=.04\n"
                         "p  c=20\n"
                         "v'=(iapp-gca*(v-120)-gk*w*(v-vk))/c\n"
                         "dw/dt=phi*(0.5-w)\n"
                         "v(0)=-60\n"
                         "init w=0.01\n"
                         "i w=0.02\n");
    REQUIRE(m.states.size() == 2);
    CHECK(m.states[0].name == "v");
    CHECK(m.states[1].name == "w");
    CHECK(m.states[0].initial == -60);
    CHECK(m.states[1].initial == 0.02); // the later init wins
    CHECK(m.states[1].where.line == 6);
    REQUIRE(m.parameters.size() == 6);
    CHECK(m.parameters[2].value == -84);
    CHECK(m.parameters[3].name == "iapp");
    CHECK(m.parameters[3].value == 0);
    CHECK(m.parameters[4].value == 0.04);
    CHECK(m.parameters[5].name == "c");
    const double v = -60, w = 0.02;
    CHECK(evaluate_at_start(m, m.states[0].rhs) == Approx((0 - 4.4 * (v - 120) - 8 * w * (v + 84)) / 20));
    CHECK(evaluate_at_start(m, m.states[1].rhs) == Approx(0.04 * (0.5 - w)));
}

TEST_CASE("XPPAUT's reading of declared values is followed, with warnings", "[model][build]") {
    const ParseResult r =
        parse_model("par a=2*3, b = 5\nnumber n=1e-2x\nx'=a+b+n\ninit x=a\ny(0)=4/2\ny'=0\n", "m.ode");
    REQUIRE(r.model);
    CHECK(r.model->parameters[0].value == 2);
    CHECK(r.model->parameters[1].value == 5);
    CHECK(r.model->states[0].initial == 0);
    CHECK(r.model->states[1].initial == 4);
    CHECK(evaluate_at_start(*r.model, r.model->states[0].rhs) == Approx(7.01));
    CHECK(count_code(r.diagnostics, "W-value-prefix") == 3);
    CHECK(count_code(r.diagnostics, "W-value-zero") == 1);
    CHECK(count_code(r.diagnostics, "W-space-equals") == 1);
}

TEST_CASE("derived parameters take parameter slots after the user parameters", "[model][build]") {
    const Model m = load("par a=2\n!twice=2*a\npar b=3\n!total=twice+b\nx'=total*x\ninit x=1\n");
    REQUIRE(m.derived.size() == 2);
    CHECK(m.num_parameters() == 2);
    CHECK(m.num_param_slots() == 4);
    CHECK(m.derived[0].slot == 2);
    CHECK(m.derived[1].slot == 3);
    const auto& rhs = m.pool.node(m.states[0].rhs);
    CHECK(rhs.op == bif::sym::Op::Mul);
    CHECK(evaluate_at_start(m, m.states[0].rhs) == 7);
}

TEST_CASE("aux quantities, fixed variables and functions are kept for display", "[model][build]") {
    const ParseResult r =
        parse_model("f(u,V)=u*V\nica=f(x,2)\nx'=-ica\naux ica=ica\naux f=f(1,1)\n", "m.ode");
    REQUIRE(r.model);
    const Model& m = *r.model;
    CHECK(count_code(r.diagnostics, "W-duplicate-name") == 2);
    REQUIRE(m.fixed.size() == 1);
    CHECK(m.fixed[0].name == "ica");
    REQUIRE(m.aux.size() == 2);
    CHECK(m.aux[0].formula == m.fixed[0].formula);
    REQUIRE(m.functions.size() == 1);
    CHECK(m.functions[0].name == "f");
    CHECK(m.functions[0].arguments == std::vector<std::string>{"u", "v"});
    CHECK(m.functions[0].body == "u*V");
}

TEST_CASE("events: direction, condition, resets, arret", "[model][build]") {
    const ParseResult r = parse_model("par k=1\nx'=1\ny'=-y\n"
                                      "global 1 {x-1} {x=0; k=k+1; y=y*2}\n"
                                      "g -1 y-0.5 {arret=1}\n"
                                      "global 0 x {x=x}\n",
                                      "m.ode");
    REQUIRE(r.model);
    const Model& m = *r.model;
    REQUIRE(m.events.size() == 3);
    const Event& e = m.events[0];
    CHECK(e.direction == 1);
    CHECK(e.text == "x-1");
    CHECK(e.where.line == 4);
    REQUIRE(e.resets.size() == 3);
    CHECK(e.resets[0].target == Reset::Target::State);
    CHECK(e.resets[0].index == 0);
    CHECK(e.resets[1].target == Reset::Target::Param);
    CHECK(e.resets[1].index == 0);
    CHECK(evaluate_at_start(m, e.resets[1].value) == 2);
    CHECK(e.resets[2].index == 1);
    CHECK(evaluate_at_start(m, e.condition) == -1);
    CHECK(m.events[1].direction == -1);
    REQUIRE(m.events[1].resets.size() == 1);
    CHECK(m.events[1].resets[0].target == Reset::Target::Stop);
    CHECK(m.events[2].direction == 0);
    CHECK(find_diagnostic(r.diagnostics, "W-event-sign-zero"));
}

TEST_CASE("resets: states assigned in order, parameters together, as XPPAUT 6.11 does", "[model][build]") {
    // Measured with xppaut 6.11 on this model (integrated to t=1.2): after the event y = 7 (it saw
    // the new x = 0) and b = 2 (it saw the old a = 1).
    const Model m = load("x'=1\ny'=0\npar a=1,b=0\ninit x=0.9273,y=5\n"
                         "global 1 x-0.9273 {x=0;y=x+7;a=0;b=a+1}\n");
    const Event& e = m.events.at(0);
    REQUIRE(e.resets.size() == 4);
    CHECK(evaluate_at_start(m, e.resets[0].value) == 0); // x
    CHECK(evaluate_at_start(m, e.resets[1].value) == 7); // y = new x + 7
    CHECK(evaluate_at_start(m, e.resets[2].value) == 0); // a
    CHECK(evaluate_at_start(m, e.resets[3].value) == 2); // b = old a + 1
}

TEST_CASE("diagnostics come in the file's order", "[model][build]") {
    const ParseResult r = parse_model("x'=a*x\npar a=1\ny'=1+1>2\nz=foo(3)\naux w=x^3^2\n", "m.ode");
    REQUIRE(r.diagnostics.size() >= 3);
    for (std::size_t i = 1; i < r.diagnostics.size(); ++i)
        CHECK(std::pair(r.diagnostics[i - 1].line, r.diagnostics[i - 1].column) <=
              std::pair(r.diagnostics[i].line, r.diagnostics[i].column));
}

TEST_CASE("options: XPPAUT's prefix rule, canonical names, later ones win", "[model][build]") {
    const ParseResult r = parse_model("x'=1\n"
                                      "@ total=100, dt=.01 transient=50\n"
                                      "@ METHOD=stiff,tolerance=1e-6,atoler=1e-8,dtmax=2\n"
                                      "@ tot=3, xp=x, yp=x, nplot=1, maxstor=100000, bounds=1e4\n"
                                      "@ total=200\n",
                                      "m.ode");
    REQUIRE(r.model);
    const Model& m = *r.model;
    REQUIRE(m.option("total"));
    CHECK(m.option("total")->value == "200");
    CHECK(m.option("trans")->written == "transient");
    CHECK(m.option("meth")->value == "stiff");
    CHECK(m.option("tol")->value == "1e-6");
    CHECK(m.option("atol")->value == "1e-8");
    CHECK(m.option("dtmax")->value == "2");
    CHECK(m.option("dt")->value == ".01");
    CHECK(m.option("bound")->used_by_bifscope);
    CHECK(m.option("tot")); // not an XPPAUT option: kept as written, with a warning
    CHECK(find_diagnostic(r.diagnostics, "W-unknown-option"));
    CHECK_FALSE(m.option("maxstor")->used_by_bifscope);
    CHECK(m.options.size() == 14);
    REQUIRE(count_code(r.diagnostics, "N-options-ignored") == 1);
    const Diagnostic* note = find_diagnostic(r.diagnostics, "N-options-ignored");
    CHECK(note->severity == Severity::Note);
    CHECK(note->message.find("nplot, maxstor") != std::string::npos);
    CHECK(note->message.find("total") == std::string::npos);
}

TEST_CASE("sets and comments are kept as text", "[model][build]") {
    const Model m = load("\" {a=1,b=2} Click for the first regime\n"
                         "\"plain comment\n"
                         "par a=0,b=0\nx'=a-b\n"
                         "set fast {a=1, x=0,dt=.25}\n");
    REQUIRE(m.comments.size() == 2);
    CHECK(m.comments[0] == "{a=1,b=2} Click for the first regime");
    CHECK(m.comments[1] == "plain comment");
    REQUIRE(m.sets.size() == 1);
    CHECK(m.sets[0].name == "fast");
    using Pair = std::pair<std::string, std::string>;
    CHECK(m.sets[0].assignments == std::vector<Pair>{{"a", "1"}, {"x", "0"}, {"dt", ".25"}});
}

TEST_CASE("diagnostics print as file:line:col with the source line and a caret", "[model][diagnostics]") {
    const ParseResult r = parse_model("x'=1\n\ty'=foo+1\n", "dir/m.ode");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].format() == "dir/m.ode:2:5: error: unknown name `foo` [E-unknown-name]\n"
                                       "\ty'=foo+1\n"
                                       "\t   ^");
    const ParseResult none = parse_model("par a=1\n", "n.ode");
    REQUIRE(none.diagnostics.size() == 1);
    CHECK(none.diagnostics[0].format().rfind("n.ode: error: ", 0) == 0);
    CHECK(has_errors(none.diagnostics));
    CHECK(std::string(severity_name(Severity::Warning)) == "warning");
}

TEST_CASE("files: a missing one is a diagnostic, an existing one loads", "[model][files]") {
    const ParseResult missing = load_model_file("/nonexistent/dir/model.ode");
    CHECK_FALSE(missing.model);
    REQUIRE(missing.diagnostics.size() == 1);
    CHECK(missing.diagnostics[0].code == "E-file");
    const ParseResult directory = load_model_file(BIFSCOPE_SOURCE_DIR);
    REQUIRE(directory.diagnostics.size() == 1);
    CHECK(directory.diagnostics[0].code == "E-file");
    const std::string path = std::string(BIFSCOPE_SOURCE_DIR) + "/tests/fuzz/seeds/van_der_pol.ode";
    const ParseResult vdp = load_model_file(path);
    INFO(all_diagnostics(vdp.diagnostics));
    REQUIRE(vdp.model);
    CHECK(vdp.model->file == path);
    CHECK(vdp.model->states.size() == 2);
}

TEST_CASE("the example models load without errors or warnings", "[model][files]") {
    int models = 0;
    for (const auto& entry : std::filesystem::directory_iterator(BIFSCOPE_MODELS_DIR)) {
        if (entry.path().extension() != ".ode") continue;
        ++models;
        const ParseResult r = load_model_file(entry.path().string());
        INFO(all_diagnostics(r.diagnostics));
        CHECK(r.model);
        for (const Diagnostic& d : r.diagnostics)
            CHECK(d.severity == Severity::Note);
    }
    CHECK(models > 0);
}

TEST_CASE("a model without any ODE is an error", "[model][build]") {
    const ParseResult r = parse_model("par a=1\naux b=a\n", "m.ode");
    CHECK_FALSE(r.model);
    CHECK(find_diagnostic(r.diagnostics, "E-no-ode"));
}
