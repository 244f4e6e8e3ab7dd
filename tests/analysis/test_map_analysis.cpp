// Maps through the whole pipeline (bundled .ode map -> study -> CPU backend, native and evaluator)
// against published values and closed forms: the logistic map's period-doubling points r1 = 3 and
// r2 = 1 + sqrt(6) and its Feigenbaum point r_inf = 3.5699456718... (Feigenbaum 1978; r_inf by
// Briggs 1991), its fixed point and 2-cycle in closed form, its Lyapunov exponent ln 2 at r = 4
// (Ulam & von Neumann's conjugacy to the tent map) and ln|4 + 2r - r^2| / 2 on the 2-cycle; the
// Henon map's exponents at a = 1.4, b = 0.3 (about 0.42 and -1.62; Sprott, Chaos and Time-Series
// Analysis, 2003) whose sum is ln b exactly.
#include "analysis_support.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;
using analysis_test::run;

namespace {

double scalar(const study::Result& r, const char* name, std::size_t system = 0) {
    const study::NumberColumn* c = r.scalar(name);
    REQUIRE(c);
    return c->values.at(system);
}

std::string number(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

// The logistic map's detected periods over `count` values of r in [from, to] (a two-parameter map
// study whose second axis is one initial value).
study::Result logistic_periods(double from, double to, int count, int transient, bool native = true) {
    return run(R"({"bifscope_study": 1, "model": {"path": "logistic.ode"},
        "sweep": [{"parameter": "r", "from": )" +
                   number(from) + R"(, "to": )" + number(to) + R"(, "count": )" + std::to_string(count) +
                   R"(},
                  {"initial": "x", "from": 0.3, "to": 0.3, "count": 1}],
        "analysis": {"kind": "map", "transient_sections": )" +
                   std::to_string(transient) + R"(, "recorded_sections": 256,
                     "period": {"tolerance": 1e-7, "max_period": 64}}})",
               native);
}

// The first r of the sweep from which on the period is `period` (the sweep runs up in r).
double first_r_with_period(const study::Result& r, double from, double to, int count, int period) {
    const study::NumberColumn* p = r.scalar("period");
    REQUIRE(p);
    for (int i = 0; i < count; ++i)
        if (p->values[std::size_t(i)] == period) return from + (to - from) * i / (count - 1);
    FAIL("no system has period " << period);
    return 0;
}

} // namespace

TEST_CASE("logistic map: the period doubles at r1 = 3 and r2 = 1 + sqrt(6)", "[engine][maps]") {
    const int transient = analysis_test::sanitized ? 20000 : 100000;
    // near a doubling the orbit settles like 1/sqrt(iterates): the shorter sanitizer run sees the
    // period-2 cycle one sweep step (1e-4) further from the exact point
    const double margin = analysis_test::sanitized ? 6e-4 : 3e-4;
    const study::Result r1 = logistic_periods(2.99, 3.01, 201, transient);
    CHECK(first_r_with_period(r1, 2.99, 3.01, 201, 2) == Approx(3.0).margin(margin));
    const double r2_exact = 1 + std::sqrt(6.0);
    const study::Result r2 = logistic_periods(3.44, 3.46, 201, transient);
    CHECK(first_r_with_period(r2, 3.44, 3.46, 201, 4) == Approx(r2_exact).margin(margin));
    // below each point the lower period (no spurious doubling before it)
    CHECK(r1.scalar("period")->values[0] == 1);
    CHECK(r2.scalar("period")->values[0] == 2);
}

TEST_CASE("logistic map: the doubling points converge to Feigenbaum's r_inf", "[engine][maps]") {
    if (analysis_test::sanitized) return; // long transients; the other map tests cover the pipeline
    // r4 (period 16 from), r5 (32), r6 (64) located on one fine sweep, then Aitken's extrapolation
    // r_inf ~ r6 + (r6 - r5)^2 / ((r5 - r4) - (r6 - r5)) (the gaps shrink geometrically by delta)
    const double from = 3.5640, to = 3.5700;
    const int count = 6001;
    const study::Result r = logistic_periods(from, to, count, 100000);
    const double r4 = first_r_with_period(r, from, to, count, 16);
    const double r5 = first_r_with_period(r, from, to, count, 32);
    const double r6 = first_r_with_period(r, from, to, count, 64);
    // published doubling points (e.g. Briggs 1991): 3.5644073, 3.5687594, 3.5696916
    CHECK(r4 == Approx(3.5644073).margin(2e-6));
    CHECK(r5 == Approx(3.5687594).margin(2e-6));
    CHECK(r6 == Approx(3.5696916).margin(2e-6));
    CHECK((r5 - r4) / (r6 - r5) == Approx(4.6692).margin(0.05)); // Feigenbaum's delta
    const double r_inf = r6 + (r6 - r5) * (r6 - r5) / ((r5 - r4) - (r6 - r5));
    CHECK(r_inf == Approx(3.5699456718).margin(2e-5));
}

TEST_CASE("logistic bifurcation diagram: every iterate a point, on the fixed point and the 2-cycle",
          "[engine][maps]") {
    // the study's section is left out: a map samples every iterate
    const std::string study = R"({"bifscope_study": 1, "model": {"path": "logistic.ode"},
        "sweep": [{"parameter": "r", "from": 2.5, "to": 4, "count": 61}],
        "analysis": {"kind": "bifurcation", "transient_sections": 5000, "recorded_sections": 32}})";
    const study::Result native = run(study, true);
    const study::Result evaluated = run(study, false);
    for (std::size_t s = 0; s < 61; ++s) {
        const double rr = 2.5 + 1.5 * double(s) / 60;
        INFO("r = " << rr);
        REQUIRE(native.status[s] == study::SystemStatus::Ok);
        REQUIRE(native.points.rows_filled[s] == 32);
        for (std::size_t row = 0; row < 32; ++row) {
            const double x = native.points.value(s, row, 0);
            // the compiler-free evaluator runs the same arithmetic
            CHECK(evaluated.points.value(s, row, 0) == Approx(x).margin(1e-12));
            if (rr < 2.95) {
                CHECK(x == Approx(1 - 1 / rr).margin(1e-9));
            } else if (rr > 3.05 && rr < 3.4) {
                const double root = std::sqrt((rr - 3) * (rr + 1));
                const double hi = (rr + 1 + root) / (2 * rr), lo = (rr + 1 - root) / (2 * rr);
                CHECK(std::min(std::abs(x - hi), std::abs(x - lo)) < 1e-9);
                // alternating: the next iterate is the other point of the cycle
                if (row > 0) CHECK(std::abs(x - native.points.value(s, row - 1, 0)) > 0.5 * (hi - lo));
            } else {
                CHECK((x >= 0 && x <= 1));
            }
        }
    }
}

TEST_CASE("logistic map: Lyapunov exponent ln 2 at r = 4 and on the 2-cycle in closed form",
          "[engine][maps][lyapunov]") {
    const double averaging = analysis_test::sanitized ? 2e5 : 2e6;
    for (const bool native : {true, false}) {
        INFO((native ? "native" : "evaluator"));
        const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "logistic.ode"},
            "sweep": [{"parameter": "r", "from": 3.2, "to": 4, "count": 2}],
            "analysis": {"kind": "lyapunov", "exponents": "largest", "transient_time": 1000,
                         "averaging_time": )" +
                                        number(averaging) + R"(, "renormalization_interval": 1}})",
                                    native);
        REQUIRE(r.status[0] == study::SystemStatus::Ok);
        REQUIRE(r.status[1] == study::SystemStatus::Ok);
        // the 2-cycle's multiplier f'(x+) f'(x-) = 4 + 2r - r^2, per iterate half its log
        CHECK(scalar(r, "lambda1", 0) ==
              Approx(0.5 * std::log(std::abs(4 + 2 * 3.2 - 3.2 * 3.2))).margin(1e-6));
        // r = 4: ln 2 (a time average; its statistical error falls as 1/sqrt(n))
        CHECK(scalar(r, "lambda1", 1) == Approx(std::log(2.0)).margin(5e-3));
    }
}

TEST_CASE("Henon map (a = 1.4, b = 0.3): exponents 0.42 and -1.62, their sum ln 0.3",
          "[engine][maps][lyapunov]") {
    const double averaging = analysis_test::sanitized ? 1e5 : 1e6;
    const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "henon.ode"},
        "parameters": {"a": 1.4, "b": 0.3},
        "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 1000,
                     "averaging_time": )" +
                                number(averaging) + R"(, "renormalization_interval": 1}})");
    REQUIRE(r.status[0] == study::SystemStatus::Ok);
    const double l1 = scalar(r, "lambda1"), l2 = scalar(r, "lambda2");
    CHECK(l1 == Approx(0.4192).margin(5e-3));
    CHECK(l2 == Approx(-1.6232).margin(5e-3));
    // the Jacobian's determinant is -b at every point: exact up to rounding
    CHECK(l1 + l2 == Approx(std::log(0.3)).margin(1e-9));
}

TEST_CASE("map studies: the iteration method only, and for maps only", "[engine][maps]") {
    const study::ResolveResult wrong = study::resolve_study(
        study::read_study_json(R"({"bifscope_study": 1, "model": {"text": "x(t+1)=x/2\n"},
            "analysis": {"kind": "trajectory"}, "solver": {"method": "rk4"}})")
            .study.value(),
        "");
    REQUIRE(!wrong.resolved);
    bool said = false;
    for (const auto& p : wrong.problems)
        said = said || (p.path == "solver.method" && p.message.find("map") != std::string::npos);
    CHECK(said);
    const study::ResolveResult flow =
        study::resolve_study(study::read_study_json(R"({"bifscope_study": 1, "model": {"text": "x'=-x\n"},
            "analysis": {"kind": "trajectory"}, "solver": {"method": "iteration"}})")
                                 .study.value(),
                             "");
    CHECK(!flow.resolved);
}
