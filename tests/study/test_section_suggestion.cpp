// The section a new study starts with: the forcing period read from the right-hand sides, checked
// against the model itself (the right-hand sides repeat after the period and after no shorter
// whole fraction of it), then the model's poipln, then an event on the first state.
#include "engine/model/parse.h"
#include "engine/study/resolved_study.h"
#include "engine/study/section_suggestion.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace bif;
using namespace bif::study;

namespace {

model::Model parse(const std::string& text) {
    model::ParseResult r = model::parse_model(text);
    std::string diagnostics;
    for (const auto& d : r.diagnostics)
        diagnostics += d.format() + "\n";
    INFO(text << diagnostics);
    REQUIRE(r.model);
    return std::move(*r.model);
}

std::vector<double> parameter_slots(const model::Model& m) {
    std::vector<double> p;
    for (const auto& q : m.parameters)
        p.push_back(q.value);
    p.resize(m.num_param_slots());
    for (const auto& d : m.derived)
        p[d.slot] = m.pool.evaluate(d.formula, nullptr, p.data(), 0.0);
    return p;
}

// The largest change of any right-hand side between t and t + shift, over random states and times.
double largest_change(const model::Model& m, double shift) {
    const std::vector<double> p = parameter_slots(m);
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-2.0, 2.0);
    double change = 0.0;
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<double> y(m.num_states());
        for (double& v : y)
            v = uniform(random);
        const double t = 10 * uniform(random);
        for (const auto& s : m.states) {
            const double a = m.pool.evaluate(s.rhs, y.data(), p.data(), t);
            const double b = m.pool.evaluate(s.rhs, y.data(), p.data(), t + shift);
            change = std::max(change, std::abs(a - b) / (1 + std::abs(a)));
        }
    }
    return change;
}

double evaluate(model::Model m, const std::string& formula) {
    const auto parsed = model::parse_expression(m, formula);
    REQUIRE(parsed.node);
    const std::vector<double> p = parameter_slots(m);
    return m.pool.evaluate(*parsed.node, nullptr, p.data(), 0.0);
}

} // namespace

TEST_CASE("the forcing period of a periodically forced model, as a formula of its parameters",
          "[study][section]") {
    struct Case {
        const char* model;
        const char* period;
    };
    const Case cases[] = {
        {"x'=y\ny'=-k*y-x^3+b*cos(omega*t)\npar k=0.05,b=7.5,omega=1.3\n", "2*pi/omega"},
        {"x'=y\ny'=-0.05*y-x^3+7.5*sin(t)\n", "2*pi"},
        {"x'=y\ny'=-x+a*cos(2*pi*t/per)\npar a=1,per=3.5\n", "per"},
        {"x'=y\ny'=-x+cos(3*t)\n", "2*pi/3"},
        {"x'=y\ny'=-x+a*sin(w*t+phi)+a*cos(2*w*t)\npar a=1,w=0.7,phi=0.3\n", "2*pi/w"},
        {"x'=y\ny'=-x+cos(2*pi*f*t)\npar f=5\n", "1/f"},
        {"x'=y\ny'=-x+y*cos(omega*t)\n!omega=2*w\npar w=0.4\n", "2*pi/omega"},
        {"x'=-x+heav(sin(t/tau))\npar tau=2\n", "2*pi*tau"},
    };
    for (const Case& c : cases) {
        const model::Model m = parse(c.model);
        const auto period = forcing_period(m);
        INFO(c.model);
        REQUIRE(period);
        CHECK(*period == c.period);
        // Independent of how it was found: the model repeats after it, and not after half or a third.
        const double T = evaluate(m, *period);
        CHECK(largest_change(m, T) < 1e-9);
        CHECK(largest_change(m, T / 2) > 1e-3);
        CHECK(largest_change(m, T / 3) > 1e-3);
    }
}

TEST_CASE("no forcing period where t is not only in a periodic forcing", "[study][section]") {
    for (const char* text : {"x'=-x\n", "x'=-x+exp(-t)*cos(t)\n", "x'=-x+t*cos(t)\n", "x'=-x+cos(t*t)\n",
                             "x'=-x+cos(x*t)\n", "x(t+1)=r*x*(1-x)\npar r=3.5\n"}) {
        INFO(text);
        CHECK_FALSE(forcing_period(parse(text)));
    }
}

TEST_CASE("the suggested section: forcing, else the model's poipln, else the first state rising",
          "[study][section]") {
    const model::Model forced = parse("x'=y\ny'=-x+b*cos(w*t)\npar b=1,w=2\n");
    const SuggestedSection f = suggested_section(forced);
    CHECK(f.section.kind == SectionKind::Stroboscopic);
    CHECK(f.section.period == "2*pi/w");

    const model::Model plane = parse("x'=y\ny'=x-x^3-0.1*y\n@ poivar=y,poipln=0.5,poisgn=-1\n");
    const SuggestedSection p = suggested_section(plane);
    CHECK(p.section.kind == SectionKind::Event);
    CHECK(p.section.condition == "y-(0.5)");
    CHECK(p.section.direction == CrossingDirection::Falling);

    const model::Model level = parse("x'=y\ny'=x-x^3-0.1*y\n@ poipln=0.25\n");
    CHECK(suggested_section(level).section.condition == "x-(0.25)");

    const model::Model lorenz = parse("x'=s*(y-x)\ny'=x*(r-z)-y\nz'=x*y-b*z\npar s=10,r=28,b=2.667\n");
    const SuggestedSection e = suggested_section(lorenz);
    CHECK(e.section.kind == SectionKind::Event);
    CHECK(e.section.condition == "x");
    CHECK(e.section.direction == CrossingDirection::Rising);

    const model::Model map = parse("x(t+1)=r*x*(1-x)\npar r=3.5\n");
    CHECK(suggested_section(map).section.period == "1");

    for (const model::Model* m : {&forced, &plane, &level, &lorenz})
        CHECK_FALSE(section_is_empty(suggested_section(*m).section));
    CHECK(section_is_empty(Section{}));
}

TEST_CASE("a bifurcation study with the suggested section resolves as it is", "[study][section]") {
    const char* text = "x'=y\ny'=-k*y-x^3+b*cos(omega*t)\npar k=0.05,b=7.5,omega=1.3\n";
    Study s;
    s.model.text = text;
    s.analysis = AnalysisKind::Bifurcation;
    s.sweep = {SweepAxis{SweepTarget::Parameter, "b", 5.0, 10.0, 11, SweepScale::Linear}};
    s.bifurcation.section = suggested_section(parse(text)).section;
    s.bifurcation.transient_sections = suggested_transient_sections;
    s.bifurcation.recorded_sections = suggested_recorded_sections;
    const ResolveResult r = resolve_study(s, ".");
    INFO((r.problems.empty() ? std::string() : r.problems.front().format()));
    CHECK(r.resolved);
}
