// orbit_continuation and orbit_curves study files: reading and writing back, checks at JSON paths,
// and the runs against closed forms: the logistic map's fixed point 1 - 1/r with multiplier 2 - r
// (PD at r = 3); the Henon map's fold and flip curves a = -(1 - b)^2 / 4 and a = 3 (1 - b)^2 / 4
// with R1 and R2 at b = -1 (derived in test_orbit_curves.cpp).
#include "engine/continuation/orbit_study_csv.h"
#include "engine/study/equilibrium_study.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

using namespace bif;

namespace {

const std::string examples = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies/equilibria/";

study::EquilibriumResolveResult resolve(const std::string& json) {
    const study::EquilibriumStudyReadResult read = study::read_equilibrium_study_json(json);
    REQUIRE(read.study);
    study::EquilibriumResolveResult r = study::resolve_equilibrium_study(*read.study, BIFSCOPE_MODELS_DIR);
    r.problems.insert(r.problems.begin(), read.problems.begin(), read.problems.end());
    if (study::has_errors(read.problems)) r.resolved = nullptr;
    return r;
}

bool has_error_at(const study::Problems& problems, const std::string& path) {
    for (const auto& p : problems)
        if (p.severity == study::ProblemSeverity::Error && p.path == path) return true;
    return false;
}

std::string problem_text(const study::Problems& problems) {
    std::string text;
    for (const auto& p : problems)
        text += p.format() + "\n";
    return text;
}

// A stroboscopic Duffing orbit study with `orbit` and `extra` spliced in.
std::string duffing(const std::string& orbit, const std::string& extra = "") {
    return R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
  "analysis": {"kind": "orbit_continuation", "parameter": "k", "from": 0.2, "to": 0.6,
               "start": {"y1": 1, "y2": 0}, "orbit": )" +
           orbit + extra + "}}";
}

} // namespace

TEST_CASE("orbit studies are told apart, read and written back the same", "[continuation][study][orbit]") {
    CHECK(study::equilibrium_analysis_of(R"({"analysis": {"kind": "orbit_continuation"}})") ==
          study::EquilibriumAnalysis::OrbitContinuation);
    CHECK(study::equilibrium_analysis_of(R"({"analysis": {"kind": "orbit_curves"}})") ==
          study::EquilibriumAnalysis::OrbitCurves);
    for (const char* name :
         {"logistic_orbit_continuation.json", "duffing_orbit_continuation.json", "henon_orbit_curves.json"}) {
        INFO(name);
        const auto r = study::load_equilibrium_study_file(examples + name);
        INFO(problem_text(r.problems));
        REQUIRE(r.resolved);
        CHECK(r.problems.empty());
        const std::string written = study::write_equilibrium_study_json(r.resolved->study);
        const auto again = study::read_equilibrium_study_json(written);
        REQUIRE(again.study);
        CHECK(again.problems.empty());
        CHECK(study::write_equilibrium_study_json(*again.study) == written);
        CHECK(again.study->orbit.kind == r.resolved->study.orbit.kind);
        CHECK(again.study->orbit.transient_periods == r.resolved->study.orbit.transient_periods);
        CHECK(again.study->second_parameter == r.resolved->study.second_parameter);
    }
    const auto strobe = study::load_equilibrium_study_file(examples + "duffing_orbit_continuation.json");
    REQUIRE(strobe.resolved);
    CHECK(strobe.resolved->study.orbit.forcing_period == "2*pi/omega");
    CHECK(strobe.resolved->forcing_period.has_value());
}

TEST_CASE("bad orbit studies are refused at their JSON paths", "[continuation][study][orbit]") {
    const std::string ok = R"({"kind": "stroboscopic", "forcing_period": "2*pi/omega"})";
    REQUIRE(resolve(duffing(ok)).resolved);
    struct Case {
        std::string json, path;
    };
    const std::vector<Case> cases = {
        {duffing(R"({"kind": "stroboscopic"})"), "analysis.orbit.forcing_period"},
        {duffing(R"({"kind": "stroboscopic", "forcing_period": "2*pi/"})"), "analysis.orbit.forcing_period"},
        {duffing(R"({"kind": "stroboscopic", "forcing_period": "2*pi/omega + y1"})"),
         "analysis.orbit.forcing_period"},
        {duffing(R"({"kind": "loop", "forcing_period": "1"})"), "analysis.orbit.kind"},
        {duffing(R"({"kind": "map"})"), "analysis.orbit.kind"},
        {duffing(R"({"kind": "autonomous"})"), "analysis.orbit.period"},
        {duffing(R"({"kind": "autonomous", "period": -1})"), "analysis.orbit.period"},
        {duffing(R"({"kind": "stroboscopic", "forcing_period": "1", "k": 0})"), "analysis.orbit.k"},
        {duffing(R"({"kind": "stroboscopic", "forcing_period": "1", "segments": 0})"),
         "analysis.orbit.segments"},
        {duffing(R"({"kind": "stroboscopic", "forcing_period": "1", "transient_periods": -2})"),
         "analysis.orbit.transient_periods"},
        {duffing(ok, R"(, "start": "equilibria")"), "analysis.start"},
        {duffing(ok, R"(, "start": {"y1": 1})"), "analysis.start"},
        {duffing(ok, R"(, "parameter": "kk")"), "analysis.parameter"},
        {R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
             "analysis": {"kind": "orbit_continuation", "parameter": "k", "from": 0, "to": 1,
                          "start": {"y1": 1, "y2": 0}}})",
         "analysis.orbit"},
        {R"({"bifscope_study": 1, "model": {"path": "logistic.ode"},
             "analysis": {"kind": "orbit_continuation", "parameter": "r", "from": 2.5, "to": 3.9,
                          "start": {"x": 0.5}, "orbit": {"kind": "autonomous", "period": 1}}})",
         "analysis.orbit.kind"},
        {R"({"bifscope_study": 1, "model": {"path": "henon.ode"},
             "analysis": {"kind": "orbit_curves", "parameter": "a", "from": -1, "to": 1,
                          "start": {"x": 1, "y": 0.3}, "orbit": {"kind": "map"}}})",
         "analysis.second_parameter"},
        {R"({"bifscope_study": 1, "model": {"path": "henon.ode"},
             "analysis": {"kind": "orbit_curves", "parameter": "a", "from": -1, "to": 1,
                          "second_parameter": "a", "second_from": -1, "second_to": 1,
                          "start": {"x": 1, "y": 0.3}, "orbit": {"kind": "map"}}})",
         "analysis.second_parameter"},
        {R"({"bifscope_study": 1, "model": {"path": "henon.ode"},
             "analysis": {"kind": "orbit_curves", "parameter": "a", "from": -1, "to": 1,
                          "second_parameter": "b", "second_from": 0.5, "second_to": 1,
                          "start": {"x": 1, "y": 0.3}, "orbit": {"kind": "map"}}})",
         "analysis.second_from"},
    };
    for (const Case& c : cases) {
        INFO(c.json);
        const auto r = resolve(c.json);
        INFO(problem_text(r.problems));
        CHECK_FALSE(r.resolved);
        CHECK(has_error_at(r.problems, c.path));
    }
}

TEST_CASE("the logistic map's fixed point branch: PD at r = 3, multipliers 2 - r",
          "[continuation][study][orbit]") {
    const auto r = study::load_equilibrium_study_file(examples + "logistic_orbit_continuation.json");
    INFO(problem_text(r.problems));
    REQUIRE(r.resolved);
    const cont::OrbitStudyOutcome outcome = cont::run_orbit_study(*r.resolved);
    REQUIRE(outcome.branch.points.size() > 5);
    // From the transient's end (x = 1 - 1/2.6 after 200 iterates) down to r = 2.5 and up to 3.5.
    CHECK(outcome.branch.points.front().parameter == Approx(2.5).margin(1e-12));
    CHECK(outcome.branch.points.back().parameter == Approx(3.5).margin(1e-12));
    int doublings = 0;
    for (const auto& p : outcome.branch.points) {
        CHECK(p.unknowns.at(0) == Approx(1 - 1 / p.parameter).margin(1e-10));
        CHECK(p.stability.multipliers.at(0).value.real() == Approx(2 - p.parameter).margin(1e-9));
        CHECK(p.stability.stable() == (p.parameter < 3));
        if (p.label == "PD") {
            ++doublings;
            CHECK(std::abs(p.parameter - 3.0) < 1e-8);
        }
    }
    CHECK(doublings == 1);
    std::ostringstream csv;
    cont::write_orbit_study_csv(csv, *r.resolved, outcome);
    CHECK(csv.str().find("\nr,x,period,stable,unstable,label,arclength,mu_abs_1,mu_re_1,mu_im_1\n") !=
          std::string::npos);
    CHECK(csv.str().rfind("# bifscope result\n# analysis: orbit_continuation\n", 0) == 0);
}

TEST_CASE("an orbit study whose start finds no orbit says why", "[continuation][study][orbit]") {
    // Iterates of the logistic map from x = 2 at r = 3.7 run off to -infinity: the transient fails.
    const auto r = resolve(R"({"bifscope_study": 1, "model": {"path": "logistic.ode"},
      "analysis": {"kind": "orbit_continuation", "parameter": "r", "from": 2.5, "to": 3.9,
                   "start": {"x": 2}, "orbit": {"kind": "map", "transient_periods": 100}}})");
    INFO(problem_text(r.problems));
    REQUIRE(r.resolved);
    CHECK_THROWS_WITH(cont::run_orbit_study(*r.resolved), Catch::Contains("not finite"));
}

TEST_CASE("an autonomous orbit study: the Van der Pol limit cycle's period at mu = 1",
          "[continuation][study][orbit]") {
    // The commonly quoted period of the mu = 1 limit cycle, T = 6.66328686 (the shooting study must
    // reach it from a rough guess of 6.5 after a short transient).
    const auto r = resolve(R"({"bifscope_study": 1,
      "model": {"text": "par mu=1\nx'=y\ny'=mu*(1-x^2)*y-x\ndone\n"},
      "analysis": {"kind": "orbit_continuation", "parameter": "mu", "from": 0.5, "to": 2,
                   "orbit": {"kind": "autonomous", "period": 6.5, "segments": 8, "transient_periods": 5},
                   "start": {"x": 2, "y": 0}, "direction": "up", "step": 0.05, "max_step": 0.1,
                   "max_points": 10}})");
    INFO(problem_text(r.problems));
    REQUIRE(r.resolved);
    const cont::OrbitStudyOutcome outcome = cont::run_orbit_study(*r.resolved);
    REQUIRE(outcome.branch.points.size() > 2);
    CHECK(outcome.unknown_names == std::vector<std::string>{"x", "y", "T"});
    const auto& start = outcome.branch.points.front();
    CHECK(start.parameter == 1.0);
    CHECK(start.period == Approx(6.6632868593).margin(1e-8));
    CHECK(start.stability.stable());
    // The period grows with mu on the way to the relaxation regime.
    CHECK(outcome.branch.points.back().period > start.period);
}

TEST_CASE("an orbit_curves study: the Henon map's fold and flip curves with R1 and R2",
          "[continuation][study][orbit][curve]") {
    const auto r = study::load_equilibrium_study_file(examples + "henon_orbit_curves.json");
    INFO(problem_text(r.problems));
    REQUIRE(r.resolved);
    const cont::OrbitStudyOutcome outcome = cont::run_orbit_study(*r.resolved);
    REQUIRE(outcome.curves.size() == 2);
    std::vector<std::string> codim2;
    for (const auto& c : outcome.curves) {
        INFO(c.kind << ": " << c.curve.message);
        REQUIRE((c.kind == "LP" || c.kind == "PD"));
        REQUIRE(c.curve.points.size() > 10);
        CHECK(c.curve.points.front().label == "EP"); // both ends leave the box
        CHECK(c.curve.points.back().label == "EP");
        for (const auto& p : c.curve.points) {
            const double b = p.beta,
                         a = c.kind == "LP" ? -0.25 * (1 - b) * (1 - b) : 0.75 * (1 - b) * (1 - b);
            CHECK(p.alpha == Approx(a).epsilon(1e-9));
            if (!p.label.empty() && p.label != "EP") {
                codim2.push_back(c.kind + ":" + p.label);
                CHECK(p.beta == Approx(-1).epsilon(1e-8));
            }
        }
    }
    std::sort(codim2.begin(), codim2.end());
    CHECK(codim2 == std::vector<std::string>{"LP:R1", "PD:R2"});
    std::ostringstream csv;
    cont::write_orbit_study_csv(csv, *r.resolved, outcome);
    const std::string text = csv.str();
    CHECK(text.rfind("# bifscope result\n# analysis: orbit_curves\n", 0) == 0);
    CHECK(text.find("\ncurve,kind,a,b,x,y,period,stable,unstable,label,arclength,mu_abs_1,mu_re_1,mu_im_1,"
                    "mu_abs_2,mu_re_2,mu_im_2\n") != std::string::npos);
    CHECK(text.find(",PD,") != std::string::npos);
    CHECK(text.find(",R2,") != std::string::npos);
}
