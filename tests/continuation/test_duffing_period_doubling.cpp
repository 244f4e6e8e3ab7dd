// The forced Duffing oscillator (resources/models/duffing.ode, the MPGOS study
// resources/studies/duffing_bifurcation.json: b = 0.3, delta = 1, omega = 1): the period-1 orbit
// continued down the damping k from k = 0.6 (where it is the attractor, in one well) meets its
// first period doubling (near k = 0.4337); the brute-force
// diagram of the CPU backend, run through the engine on a small k grid around that point, must
// change its detected period from 1 to 2 between the grid values that bracket it (allowing one
// grid cell on either side, where the attractor converges like |mu|^n with |mu| -> 1).
#include "../analysis/analysis_support.h"
#include "engine/continuation/orbit_branch.h"
#include "engine/continuation/orbit_newton.h"
#include "engine/continuation/orbit_stroboscopic.h"
#include "orbit_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

using namespace bif::cont;

namespace {

constexpr double pi = 3.14159265358979323846;

// The period of system s's recorded section points (1, 2, 4, ...; 0 for none up to 8).
int detected_period(const bif::study::Result& r, std::size_t s, std::size_t y1) {
    const std::size_t rows = r.points.rows_filled[s];
    for (int period = 1; period <= 8; period *= 2) {
        bool repeats = true;
        for (std::size_t row = static_cast<std::size_t>(period); row < rows && repeats; ++row)
            repeats = std::abs(r.points.value(s, row, y1) -
                               r.points.value(s, row - static_cast<std::size_t>(period), y1)) < 1e-5;
        if (repeats) return period;
    }
    return 0;
}

// The first PD of the period-1 orbit continued from k = k0 downwards.
double continued_doubling() {
    const double k0 = 0.6;
    const auto m = orbit_test::load_bundled("duffing.ode");
    const int k = m.parameter("k"), omega = m.parameter("omega");
    std::vector<double> user = m.parameters;
    user[static_cast<std::size_t>(m.parameter("b"))] = 0.3;
    FlowSettings flow;
    flow.rtol = 1e-10;
    flow.atol = 1e-10;
    const ModelParameters parameters(*m.host, user, k);
    const StroboscopicOrbit orbit(
        *m.host, parameters,
        [omega](const std::vector<double>& p) { return 2 * pi / p[static_cast<std::size_t>(omega)]; }, 1,
        flow, 2);
    FlowResult settled;
    std::string why;
    REQUIRE(flow_span(*m.host, parameters.slots(k0), 0.0, m.initial(), 300 * 2 * pi, 1, false, flow, settled,
                      why));
    OrbitPoint p;
    const bool solved = solve_orbit(orbit, settled.end, k0, OrbitNewtonSettings{}, p, why);
    INFO(why);
    REQUIRE(solved);
    REQUIRE(p.stability.stable());
    ContinuationSettings s;
    s.direction = -1;
    s.initial_step = 0.002;
    s.max_step = 0.005;
    s.box = {{2, 0.2, k0 + 0.01}};
    const OrbitBranch branch = continue_orbit(orbit, p.u, k0, s);
    for (const OrbitBranchPoint& q : branch.points)
        if (q.label == "PD") return q.parameter;
    FAIL("no period doubling on the period-1 branch for k in [0.2, 0.6]: " << branch.message);
    return 0;
}

} // namespace

TEST_CASE("Duffing: the period-1 orbit's first doubling is where the brute-force diagram changes period",
          "[orbit][flow][diagram]") {
    const double k_pd = continued_doubling();
    INFO("PD at k = " << k_pd);
    const double cell = 0.001;
    const int count = 11;
    const double from = k_pd - 5 * cell, to = k_pd + 5 * cell;
    char json[1024];
    std::snprintf(json, sizeof json, R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "parameters": {"b": 0.3, "delta": 1, "omega": 1},
        "sweep": [{"parameter": "k", "from": %.17g, "to": %.17g, "count": %d}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": 1024, "recorded_sections": 16, "record": ["y1"]},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10, "initial_step": 1e-2},
        "precision": "double"})",
                  from, to, count);
    const bif::study::Result r = analysis_test::run(json, false);
    const std::size_t y1 = analysis_test::point_column(r, "y1");
    // period 2 below the doubling (smaller damping), period 1 above; one cell of slack at each side
    for (int i = 0; i < count; ++i) {
        const double k = from + (to - from) * i / (count - 1);
        const int period = detected_period(r, static_cast<std::size_t>(i), y1);
        INFO("k = " << k << ": period " << period);
        if (k < k_pd - 1.5 * cell) CHECK(period == 2);
        if (k > k_pd + 1.5 * cell) CHECK(period == 1);
    }
}
