// Section-based analyses through the whole pipeline against independent references: the van der
// Pol limit-cycle period on an event section, the period-doubling cascades of the Duffing
// stroboscopic map (MPGOS Fig. 5; periods from Boost.Odeint as the second method), the maxima of
// y1 between sections (MPGOS Fig. 6) against dense sampling of the Odeint solution, and the impacts
// of the pressure relief valve (MPGOS Fig. 10: min y1 = 0 below q of about 7.5, not above).
#include "analysis_support.h"
#include "duffing_odeint.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif;
using analysis_test::run;

TEST_CASE("van der Pol (mu = 1): the event section recurs with the limit-cycle period",
          "[engine][sections]") {
    const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "vanderpol.ode"},
        "sweep": [{"parameter": "mu", "from": 1, "to": 1, "count": 1}],
        "analysis": {"kind": "bifurcation",
                     "section": {"kind": "event", "condition": "y", "direction": "falling", "max_time_between": 50},
                     "transient_sections": 20, "recorded_sections": 6, "record": ["t", "x"]},
        "solver": {"method": "dopri5", "rtol": 1e-12, "atol": 1e-12}})");
    REQUIRE(r.status[0] == study::SystemStatus::Ok);
    REQUIRE(r.points.rows_filled[0] == 6);
    const std::size_t t = analysis_test::point_column(r, "t"), x = analysis_test::point_column(r, "x");
    for (std::size_t row = 1; row < 6; ++row) {
        // the period of the mu = 1 cycle, 6.663286859 (e.g. Strogatz, Nonlinear Dynamics and Chaos, 7.5)
        CHECK(r.points.value(0, row, t) - r.points.value(0, row - 1, t) == Approx(6.663286859).epsilon(1e-8));
        // y falls through zero at the maximum of x, the cycle's amplitude 2.00861986
        CHECK(r.points.value(0, row, x) == Approx(2.00861986).epsilon(1e-7));
    }
}

TEST_CASE("Duffing (B = 0.3): period doubling 3 -> 6 -> 12 as k decreases, as Odeint finds",
          "[engine][sections]") {
    // k values inside the windows that a scan with Odeint located (period 3 for k in [0.2104, 0.2245],
    // 6 in [0.2096, 0.2103], 12 in [0.20950, 0.20956]); both methods must find these periods there.
    const double ks[] = {0.2175, 0.2100, 0.20953};
    const int expected[] = {3, 6, 12};
    const int transient = analysis_test::sanitized ? 600 : 1024, recorded = 64;
    for (int i = 0; i < 3; ++i) {
        INFO("k = " << ks[i]);
        const analysis_test::DuffingOdeint duffing{ks[i], 0.3};
        CHECK(analysis_test::period_of(duffing.section_points({0.1, 0.0}, transient, recorded, 1e-11), 16,
                                       1e-6) == expected[i]);
        const std::string k = std::to_string(ks[i]);
        const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
            "parameters": {"delta": 1, "omega": 1},
            "sweep": [{"parameter": "k", "from": )" +
                                    k + R"(, "to": )" + k + R"(, "count": 1},
                      {"parameter": "b", "from": 0.3, "to": 0.3, "count": 1}],
            "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                         "transient_sections": )" +
                                    std::to_string(transient) + R"(, "recorded_sections": 64,
                         "period": {"tolerance": 1e-6, "max_period": 16}},
            "solver": {"method": "dopri5", "rtol": 1e-11, "atol": 1e-11}})");
        REQUIRE(r.status[0] == study::SystemStatus::Ok);
        CHECK(r.scalar("period")->values[0] == expected[i]);
    }
}

TEST_CASE("Duffing: maxima of y1 between sections match dense sampling of Odeint", "[engine][sections]") {
    const double k = 0.2175; // period 3
    const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "parameters": {"b": 0.3, "delta": 1, "omega": 1},
        "sweep": [{"parameter": "k", "from": 0.2175, "to": 0.2175, "count": 1}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": 300, "recorded_sections": 3,
                     "record": ["y1", {"expression": "y1", "name": "max y1", "value": "max_between"},
                                {"expression": "y1", "name": "min y1", "value": "min_between"}]},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10}})");
    REQUIRE(r.status[0] == study::SystemStatus::Ok);
    namespace odeint = boost::numeric::odeint;
    using State = analysis_test::DuffingOdeint::State;
    const analysis_test::DuffingOdeint duffing{k, 0.3};
    auto stepper = odeint::make_dense_output(1e-11, 1e-11, odeint::runge_kutta_dopri5<State>());
    stepper.initialize(State{0.1, 0.0}, 0.0, 1e-3);
    auto state_at = [&](double t) {
        while (stepper.current_time() < t)
            stepper.do_step(duffing);
        State s;
        stepper.calc_state(t, s);
        return s;
    };
    const std::size_t at = analysis_test::point_column(r, "y1"),
                      hi = analysis_test::point_column(r, "max y1"),
                      lo = analysis_test::point_column(r, "min y1");
    for (int row = 0; row < 3; ++row) {
        // sample [(300 + row) T, (301 + row) T] every T / 62832 (about 1e-4) on Odeint's dense output
        const double t0 = (300 + row) * 2 * M_PI, t1 = t0 + 2 * M_PI;
        const int samples = 62832;
        double best = -1e300, worst = 1e300;
        for (int j = 0; j <= samples; ++j) {
            const double y1 = state_at(t0 + (t1 - t0) * j / samples)[0];
            best = std::max(best, y1);
            worst = std::min(worst, y1);
        }
        INFO("interval " << row);
        CHECK(r.points.value(0, std::size_t(row), at) == Approx(state_at(t1)[0]).margin(1e-7));
        CHECK(r.points.value(0, std::size_t(row), hi) == Approx(best).margin(1e-7));
        CHECK(r.points.value(0, std::size_t(row), lo) == Approx(worst).margin(1e-7));
    }
}

TEST_CASE("relief valve: the valve hits its seat below q of about 7.5 and not above", "[engine][sections]") {
    const study::Result r = run(R"({"bifscope_study": 1, "model": {"path": "relief_valve.ode"},
        "parameters": {"kappa": 1.25, "delta": 10, "beta": 20, "r": 0.8},
        "sweep": [{"parameter": "q", "from": 2, "to": 8, "count": 7}],
        "analysis": {"kind": "bifurcation",
                     "section": {"kind": "event", "condition": "y2", "direction": "falling", "max_time_between": 100},
                     "transient_sections": 300, "recorded_sections": 16,
                     "record": [{"expression": "y1", "name": "max y1"},
                                {"expression": "y1", "name": "min y1", "value": "min_between"}]},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10, "initial_step": 1e-3}})");
    const std::size_t lo = analysis_test::point_column(r, "min y1");
    for (std::size_t s = 0; s < r.system_count; ++s) {
        const double q = r.axes[0].values[s];
        INFO("q = " << q);
        REQUIRE(r.status[s] == study::SystemStatus::Ok);
        double lowest = 1e300;
        for (std::size_t row = 0; row < r.points.rows_filled[s]; ++row)
            lowest = std::min(lowest, r.points.value(s, row, lo));
        if (q < 7.5)
            CHECK(std::abs(lowest) < 1e-9);
        else
            CHECK(lowest > 0.1);
    }
}
