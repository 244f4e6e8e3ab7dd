// Lyapunov exponents through the whole pipeline (bundled .ode model -> study -> CPU backend) against
// published values and exact identities: the Lorenz spectrum (Sprott, Chaos and Time-Series
// Analysis, 2003: 0.9056, 0, -14.5723) whose sum is the constant trace -(sigma + 1 + beta); the zero
// exponent of an autonomous limit cycle (van der Pol); the Duffing spectrum, whose sum is the
// constant trace -k; and the flow exponent per unit time agreeing between the Lyapunov analysis and
// the section-based map.
#include "analysis_support.h"

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

} // namespace

TEST_CASE("Lorenz spectrum: published exponents, sum equal to the trace", "[engine][lyapunov]") {
    const double averaging = analysis_test::sanitized ? 1000 : 4000;
    const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
        "parameters": {"sigma": 10, "rho": 28, "beta": 2.6666666666666667},
        "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 100,
                     "averaging_time": )" +
                                std::to_string(averaging) + R"(, "renormalization_interval": 1},
        "solver": {"method": "dopri5", "rtol": 1e-10, "atol": 1e-10}})");
    REQUIRE(r.status[0] == study::SystemStatus::Ok);
    const double l1 = scalar(r, "lambda1"), l2 = scalar(r, "lambda2"), l3 = scalar(r, "lambda3");
    CHECK(l1 == Approx(0.9056).margin(0.03));
    CHECK(std::abs(l2) < 0.01);
    CHECK(l3 == Approx(-14.5723).margin(0.05));
    CHECK(l1 + l2 + l3 == Approx(-(10 + 1 + 8.0 / 3.0)).epsilon(1e-7));
    CHECK(scalar(r, "averaged_time") == Approx(averaging));
    CHECK(l1 > l2);
    CHECK(l2 > l3);
}

TEST_CASE("van der Pol limit cycle: the largest exponent of an autonomous cycle is zero",
          "[engine][lyapunov]") {
    const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "vanderpol.ode"},
        "sweep": [{"parameter": "mu", "from": 0.5, "to": 2, "count": 4}],
        "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 100,
                     "averaging_time": 2000, "renormalization_interval": 1},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10}})");
    for (std::size_t s = 0; s < r.system_count; ++s) {
        INFO("mu = " << r.axes[0].values[s]);
        REQUIRE(r.status[s] == study::SystemStatus::Ok);
        CHECK(std::abs(scalar(r, "lambda1", s)) < 2e-3);
        // the cycle is attracting: the other exponent is clearly negative
        CHECK(scalar(r, "lambda2", s) < -0.4);
        CHECK(scalar(r, "lambda_change", s) < 2e-3);
    }
}

TEST_CASE("Duffing: the spectrum sums to -k; chaotic and periodic k differ in sign", "[engine][lyapunov]") {
    // k = 0.25 is chaotic, k = 0.2175 lies in the period-3 window (see test_section_analysis.cpp)
    const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "parameters": {"b": 0.3, "delta": 1, "omega": 1},
        "sweep": [{"parameter": "k", "from": 0.2175, "to": 0.25, "count": 2}],
        "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 1000,
                     "averaging_time": 3000, "renormalization_interval": 6.283185307179586},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10}})");
    for (std::size_t s = 0; s < 2; ++s) {
        const double k = r.axes[0].values[s];
        INFO("k = " << k);
        REQUIRE(r.status[s] == study::SystemStatus::Ok);
        CHECK(scalar(r, "lambda1", s) + scalar(r, "lambda2", s) == Approx(-k).epsilon(1e-6));
    }
    CHECK(scalar(r, "lambda1", 0) < -0.01);
    CHECK(scalar(r, "lambda1", 1) > 0.05);
}

TEST_CASE("the map's largest exponent is the flow exponent per unit time", "[engine][lyapunov][map]") {
    const std::string model = R"("model": {"path": "duffing.ode"}, "parameters": {"delta": 1, "omega": 1},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10},)";
    const study::Result flow = run(R"({"bifscope_study": 1, )" + model + R"(
        "sweep": [{"parameter": "k", "from": 0.2175, "to": 0.2175, "count": 1},
                  {"parameter": "b", "from": 0.3, "to": 0.3, "count": 1}],
        "analysis": {"kind": "lyapunov", "transient_time": 1256.6370614359173,
                     "averaging_time": 1256.6370614359173, "renormalization_interval": 6.283185307179586}})");
    const study::Result map = run(R"({"bifscope_study": 1, )" + model + R"(
        "sweep": [{"parameter": "k", "from": 0.2175, "to": 0.2175, "count": 1},
                  {"parameter": "b", "from": 0.3, "to": 0.3, "count": 1}],
        "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": 200, "recorded_sections": 200, "largest_exponent": true,
                     "period": {"tolerance": 1e-6, "max_period": 16}}})");
    REQUIRE(flow.status[0] == study::SystemStatus::Ok);
    REQUIRE(map.status[0] == study::SystemStatus::Ok);
    CHECK(scalar(map, "period") == 3);
    CHECK(scalar(map, "lambda_max") == Approx(scalar(flow, "lambda1")).margin(2e-3));
    CHECK(scalar(map, "lambda_max") < -0.01);
}
