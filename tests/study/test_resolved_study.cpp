// Resolution against the model: overrides and sweep values land in the right slots, derived
// parameters follow, the study formulas become the generated model's observables and events (checked
// through the compiler-free evaluator, an independent path through codegen), continuation sweeps
// run up then down, and the result layout matches each analysis.
#include "engine/codegen/host_model.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif::study;

namespace {

const char* model_text = "x'=y\n"
                         "y'=-w*w*x-c*y+a*cos(omega*t)\n"
                         "par w=2,c=0.1,a=1,omega=3\n"
                         "!period=2*pi/omega\n"
                         "init x=0.5,y=-1\n"
                         "done\n";

std::shared_ptr<const ResolvedStudy> resolve(Study s) {
    s.model.text = model_text;
    ResolveResult r = resolve_study(s, "");
    for (const auto& p : r.problems)
        INFO(p.format());
    REQUIRE(r.problems.empty());
    return r.resolved;
}

Study bifurcation_study() {
    Study s;
    s.parameters = {{"a", 0.7}};
    s.initial = {{"y", 0.25}};
    s.sweep = {{SweepTarget::Parameter, "omega", 1.0, 4.0, 4, SweepScale::Linear}};
    s.bifurcation.section.period = "period";
    s.bifurcation.recorded_sections = 3;
    s.bifurcation.record = {{"x", "", IntervalValue::AtSection},
                            {"x*x+y*y", "energy", IntervalValue::MaxBetween}};
    return s;
}

} // namespace

TEST_CASE("overrides and the sweep set the right slots", "[study][resolve]") {
    const auto r = resolve(bifurcation_study());
    REQUIRE(r->system_count() == 4);
    std::vector<double> p(4), y(2);
    r->system_values(2, p.data(), y.data());
    CHECK(p == std::vector<double>{2.0, 0.1, 0.7, 3.0}); // w, c, a (override), omega (swept: 1, 2, 3, 4)
    CHECK(y == std::vector<double>{0.5, 0.25});
    const auto slots = r->parameter_slots(2);
    REQUIRE(slots.size() == 5);
    CHECK(slots[4] == Approx(2 * M_PI / 3.0).epsilon(1e-15));
}

TEST_CASE("study formulas become observables of the generated model", "[study][resolve]") {
    const auto r = resolve(bifurcation_study());
    const auto& f = r->formulas;
    REQUIRE(f.recorded.size() == 2);
    CHECK(f.recorded[0].name == "x");
    CHECK(f.recorded[1].name == "energy");
    CHECK(f.recorded[1].value == IntervalValue::MaxBetween);
    REQUIRE(f.period_observable >= 0);
    bif::codegen::HostModel host(r->codegen_request(bif::codegen::Precision::Double));
    REQUIRE(host.observable_count() == 3);
    std::vector<double> p = r->parameter_slots(1), o(3);
    const double y[2] = {0.3, -0.4};
    host.observables(0.0, y, p.data(), o.data());
    CHECK(o[f.recorded[0].observable] == 0.3);
    CHECK(o[f.recorded[1].observable] == Approx(0.25).epsilon(1e-15));
    CHECK(o[f.period_observable] == Approx(M_PI).epsilon(1e-15)); // omega = 2
}

TEST_CASE("an event section follows the model's own events", "[study][resolve]") {
    Study s = bifurcation_study();
    s.model.text = model_text;
    s.bifurcation.section = {SectionKind::Event, "", "y", CrossingDirection::Falling, 50.0};
    const auto r = resolve(s);
    CHECK(r->formulas.section_event == 0); // the model has no events of its own
    bif::codegen::HostModel host(r->codegen_request(bif::codegen::Precision::Double));
    REQUIRE(host.event_count() == 1);
    CHECK(host.event_direction(0) == -1);
    std::vector<double> p = r->parameter_slots(0), g(1);
    const double y[2] = {0.3, -0.4};
    host.events(0.0, y, p.data(), g.data());
    CHECK(g[0] == -0.4);
}

TEST_CASE("a continuation sweep runs up, then down", "[study][resolve]") {
    Study s = bifurcation_study();
    s.bifurcation.continuation = true;
    const auto r = resolve(s);
    REQUIRE(r->system_count() == 8);
    const Result result = allocate_result(*r);
    REQUIRE(result.axes.size() == 1);
    CHECK(result.axes[0].values == std::vector<double>{1, 2, 3, 4, 4, 3, 2, 1});
    const NumberColumn* direction = result.scalar("direction");
    REQUIRE(direction);
    CHECK(direction->values == std::vector<double>{1, 1, 1, 1, -1, -1, -1, -1});
}

TEST_CASE("result layouts per analysis", "[study][result]") {
    SECTION("bifurcation: recorded quantities, recorded_sections rows") {
        const Result r = allocate_result(*resolve(bifurcation_study()));
        CHECK(r.points.columns == std::vector<std::string>{"x", "energy"});
        CHECK(r.points.rows_per_system == 3);
        CHECK(r.points.values.size() == 4 * 3 * 2);
        CHECK(std::isnan(r.points.value(3, 2, 1)));
        CHECK(r.count(SystemStatus::NotRun) == 4);
    }
    SECTION("lyapunov spectrum: one column per state") {
        Study s;
        s.analysis = AnalysisKind::Lyapunov;
        s.lyapunov.mode = LyapunovMode::Spectrum;
        const Result r = allocate_result(*resolve(s));
        CHECK(r.system_count == 1);
        REQUIRE(r.scalars.size() == 3);
        CHECK(r.scalars[0].name == "lambda1");
        CHECK(r.scalars[1].name == "lambda2");
        CHECK(r.scalars[2].name == "averaged_time");
    }
    SECTION("map: period, exponent, accessories") {
        Study s;
        s.analysis = AnalysisKind::ParameterMap;
        s.sweep = {{SweepTarget::Parameter, "c", 0.1, 0.2, 3, SweepScale::Linear},
                   {SweepTarget::Parameter, "a", 1.0, 100.0, 2, SweepScale::Log}};
        s.map.section.period = "2*pi/omega";
        s.map.recorded_sections = 40;
        s.map.largest_exponent = true;
        s.map.accessories = {{"peak", "x", Reduction::Max, ReductionDomain::Steps}};
        const Result r = allocate_result(*resolve(s));
        CHECK(r.system_count == 6);
        CHECK(r.axes[1].values == std::vector<double>{1, 1, 1, 100, 100, 100});
        REQUIRE(r.scalars.size() == 3);
        CHECK(r.scalars[0].name == "period");
        CHECK(r.scalars[1].name == "lambda_max");
        CHECK(r.scalars[2].name == "peak");
    }
    SECTION("trajectory: t then the recorded quantities") {
        Study s;
        s.analysis = AnalysisKind::Trajectory;
        s.trajectory.t_end = 2.0;
        s.trajectory.output_count = 21;
        const Result r = allocate_result(*resolve(s));
        CHECK(r.points.columns == std::vector<std::string>{"t", "x", "y"});
        CHECK(r.points.rows_per_system == 21);
    }
}

TEST_CASE("precision auto: double on the CPU, float on a GPU only for loose tolerances", "[study][resolve]") {
    Study s = bifurcation_study();
    s.solver.rtol.all = 1e-9;
    CHECK(resolve(s)->precision_for(false) == bif::codegen::Precision::Double);
    CHECK(resolve(s)->precision_for(true) == bif::codegen::Precision::Double);
    s.solver.rtol.all = 1e-5;
    s.solver.atol.all = 1e-6;
    CHECK(resolve(s)->precision_for(true) == bif::codegen::Precision::Float);
    CHECK(resolve(s)->precision_for(false) == bif::codegen::Precision::Double);
}
