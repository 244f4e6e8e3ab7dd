// The forced Duffing oscillator (resources/models/duffing.ode, the MPGOS study
// resources/studies/duffing_bifurcation.json: b = 0.3, delta = 1, omega = 1): the period-1 orbit
// continued down the damping k from k = 0.6 (where it is the attractor, in one well) meets its
// first period doubling (near k = 0.4337); the brute-force
// diagram of the CPU backend, run through the engine on a small k grid around that point, must
// change its detected period from 1 to 2 between the grid values that bracket it (allowing one
// grid cell on either side, where the attractor converges like |mu|^n with |mu| -> 1).
// The cascade that follows, by branch switching at each doubling (period 2 at k_1, period 4 at k_2,
// period 8 at k_3), must match the diagram too: each k_j where its detected period doubles, the
// bracket shrinking as the diagram is zoomed around it (the transient lengthened with the zoom, as
// the slowest transient lengthens with 1 / |k - k_j|). And a point of the PD curve in (k, b) must be
// where the one-parameter branch at its b doubles.
#include "../analysis/analysis_support.h"
#include "engine/continuation/orbit_branch.h"
#include "engine/continuation/orbit_curve.h"
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

namespace {

FlowSettings duffing_flow() {
    FlowSettings flow;
    flow.rtol = 1e-10;
    flow.atol = 1e-10;
    return flow;
}

StroboscopicOrbit::PeriodOf forcing_period(int omega) {
    return [omega](const std::vector<double>& p) { return 2 * pi / p[static_cast<std::size_t>(omega)]; };
}

struct Doubling {
    double k;
    int period; // of the orbit that doubles there
    Eigen::VectorXd u;
};

// The small period-1 attractor in the right well (continued_doubling reaches it from k = 0.6 round
// the folds of the large orbit; here from a state near it at k = 0.44, where it is stable) continued
// down to its doubling, then each new branch switched to and continued down to its own doubling:
// k_1 > k_2 > k_3 > k_4.
std::vector<Doubling> cascade(const orbit_test::LoadedModel& m, const ModelParameters& parameters, int omega,
                              int last_period = 8) {
    const double k0 = 0.44;
    const StroboscopicOrbit orbit(*m.host, parameters, forcing_period(omega), 1, duffing_flow(), 2);
    FlowResult settled;
    std::string why;
    REQUIRE(flow_span(*m.host, parameters.slots(k0), 0.0, Eigen::Vector2d(0.4, 0.45), 300 * 2 * pi, 1, false,
                      duffing_flow(), settled, why));
    OrbitPoint p;
    REQUIRE(solve_orbit(orbit, settled.end, k0, OrbitNewtonSettings{}, p, why));
    REQUIRE(p.stability.stable());
    REQUIRE(p.u[0] < 0.6); // the small orbit, not the large one round both wells' tops
    ContinuationSettings s;
    s.direction = -1;
    s.initial_step = 0.002;
    s.max_step = 0.005;
    s.max_points = 40;
    s.box = {{2, 0.3, k0 + 0.01}};
    OrbitBranch branch = continue_orbit(orbit, p.u, k0, s);
    std::vector<Doubling> out;
    for (int period = 1; period <= 8; period *= 2) {
        const OrbitBranchPoint* pd = nullptr;
        for (std::size_t i = period == 1 ? 0 : 1; i < branch.points.size() && !pd; ++i)
            if (branch.points[i].label == "PD") pd = &branch.points[i];
        INFO("period " << period << ": " << branch.message);
        REQUIRE(pd);
        out.push_back({pd->parameter, period, Eigen::Map<const Eigen::VectorXd>(pd->unknowns.data(), 2)});
        if (period == last_period) break;
        // the next doubling comes about delta = 4.67 times closer; steps and box from the last gap
        const double gap = out.size() > 1 ? out[out.size() - 2].k - pd->parameter : 0.05;
        const StroboscopicOrbit doubled(*m.host, parameters, forcing_period(omega), 2 * period,
                                        duffing_flow(), 2);
        ContinuationSettings d = s;
        d.max_step = gap / 10;
        d.initial_step = d.max_step / 10;
        d.max_points = 80;
        d.box = {{2, pd->parameter - gap / 2, pd->parameter + gap / 10}};
        branch = continue_doubled_orbit(doubled, out.back().u, pd->parameter, d);
    }
    return out;
}

// The detected period (1..16; 0 for none) of each k of a diagram on `count` values over [from, to].
std::vector<int> diagram_periods(double from, double to, int count, int transient) {
    char json[1024];
    std::snprintf(json, sizeof json, R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
        "parameters": {"b": 0.3, "delta": 1, "omega": 1},
        "sweep": [{"parameter": "k", "from": %.17g, "to": %.17g, "count": %d}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": %d, "recorded_sections": 48, "record": ["y1"]},
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10, "initial_step": 1e-2},
        "precision": "double"})",
                  from, to, count, transient);
    const bif::study::Result r = analysis_test::run(json, false);
    const std::size_t y1 = analysis_test::point_column(r, "y1");
    std::vector<int> periods;
    for (int i = 0; i < count; ++i) {
        const std::size_t rows = r.points.rows_filled[static_cast<std::size_t>(i)];
        int found = 0;
        for (int period = 1; period <= 16 && !found; period *= 2) {
            bool repeats = true;
            for (std::size_t row = static_cast<std::size_t>(period); row < rows && repeats; ++row)
                repeats = std::abs(r.points.value(static_cast<std::size_t>(i), row, y1) -
                                   r.points.value(static_cast<std::size_t>(i),
                                                  row - static_cast<std::size_t>(period), y1)) < 1e-5;
            if (repeats) found = period;
        }
        periods.push_back(found);
    }
    return periods;
}

} // namespace

TEST_CASE("Duffing: every doubling of the cascade is where the diagram's period doubles, ever tighter when "
          "zoomed",
          "[orbit][flow][diagram][switch]") {
    const auto m = orbit_test::load_bundled("duffing.ode");
    const int k = m.parameter("k"), omega = m.parameter("omega");
    std::vector<double> user = m.parameters;
    user[static_cast<std::size_t>(m.parameter("b"))] = 0.3;
    const ModelParameters parameters(*m.host, user, k);
    const std::vector<Doubling> doublings = cascade(m, parameters, omega);
    REQUIRE(doublings.size() == 4);
    // a Feigenbaum-like cascade: each gap about delta times the next
    const double r1 = (doublings[0].k - doublings[1].k) / (doublings[1].k - doublings[2].k);
    const double r2 = (doublings[1].k - doublings[2].k) / (doublings[2].k - doublings[3].k);
    INFO("k_j: " << doublings[0].k << " " << doublings[1].k << " " << doublings[2].k << " "
                 << doublings[3].k);
    CHECK(r1 > 3.5);
    CHECK(r2 > 3.5);
    CHECK(r2 < 6.0);
    // The diagram around each of k_1, k_2, k_3: 9 values, cells of a sixth of the gap to the next
    // doubling, then a quarter of that with four times the transient (the first only: a run costs
    // the transient). The period doubles between the grid values that bracket k_j, one cell of slack:
    // the bracket narrows with the cell.
    // Transients of 512 forcing periods per period of the orbit at the first level. (The diagrams run
    // on the compiler-free evaluator, as above; sanitizer builds only the first doubling's.)
    for (std::size_t j = 0; j < (analysis_test::sanitized ? 1u : 3u); ++j) {
        const Doubling& d = doublings[j];
        double cell = (d.k - doublings[j + 1].k) / 6;
        int transient = 512 * d.period;
        const int levels = j == 0 && !analysis_test::sanitized ? 2 : 1;
        for (int level = 0; level < levels; ++level, cell /= 4, transient *= 4) {
            const std::vector<int> periods = diagram_periods(d.k - 4 * cell, d.k + 4 * cell, 9, transient);
            for (int i = 0; i < 9; ++i) {
                const double kk = d.k + (i - 4) * cell;
                INFO("k_" << j + 1 << " = " << d.k << ", cell " << cell << ": k = " << kk << " period "
                          << periods[std::size_t(i)]);
                if (kk < d.k - 1.5 * cell) CHECK(periods[std::size_t(i)] == 2 * d.period);
                if (kk > d.k + 1.5 * cell) CHECK(periods[std::size_t(i)] == d.period);
            }
        }
    }
}

TEST_CASE("Duffing: a point of the PD curve in (k, b) is the doubling of the branch at its b",
          "[orbit][flow][curve]") {
    const auto m = orbit_test::load_bundled("duffing.ode");
    const int k = m.parameter("k"), b = m.parameter("b"), omega = m.parameter("omega");
    std::vector<double> user = m.parameters;
    user[static_cast<std::size_t>(b)] = 0.3;
    const ModelParameters parameters(*m.host, user, k);
    const Doubling first = cascade(m, parameters, omega, 1).front();
    // the same point by Newton on the extended system [G; psi_PD] (orbit_newton.h)
    const StroboscopicOrbit orbit(*m.host, parameters, forcing_period(omega), 1, duffing_flow(), 2);
    std::string why;
    OrbitPoint pd;
    REQUIRE(locate_orbit_bifurcation(orbit, OrbitBifurcation::PeriodDoubling, first.u, first.k + 1e-3,
                                     OrbitNewtonSettings{}, pd, why));
    CHECK(pd.lambda == Approx(first.k).margin(1e-8));

    const OrbitFactory factory = [&](const std::vector<double>& values) {
        return std::make_unique<StroboscopicOrbit>(*m.host, ModelParameters(*m.host, values, k),
                                                   forcing_period(omega), 1, duffing_flow(), 2);
    };
    ContinuationSettings c;
    c.initial_step = 0.01;
    c.max_step = 0.02;
    c.max_points = 4;
    const OrbitCurve curve = continue_orbit_curve(factory, OrbitBifurcation::PeriodDoubling,
                                                  {user, k, b, pd.u, pd.lambda}, {0.2, 0.8}, {0.2, 0.4}, c);
    INFO(curve.message);
    REQUIRE(curve.points.size() == 4);
    const OrbitCurvePoint& last = curve.points.back();
    CHECK(last.beta > 0.32);
    // the one-parameter problem at that b: Newton on [G; psi_PD] from the curve's orbit, 0.005 away
    std::vector<double> at_b = user;
    at_b[static_cast<std::size_t>(b)] = last.beta;
    const StroboscopicOrbit there(*m.host, ModelParameters(*m.host, at_b, k), forcing_period(omega), 1,
                                  duffing_flow(), 2);
    OrbitPoint near;
    REQUIRE(solve_orbit(there, Eigen::Map<const Eigen::VectorXd>(last.unknowns.data(), 2), last.alpha + 0.005,
                        OrbitNewtonSettings{}, near, why));
    ContinuationSettings s;
    s.direction = -1;
    s.initial_step = 0.001;
    s.max_step = 0.002;
    s.max_points = 20;
    s.box = {{2, last.alpha - 0.01, last.alpha + 0.006}};
    const OrbitBranch branch = continue_orbit(there, near.u, last.alpha + 0.005, s);
    const OrbitBranchPoint* found = nullptr;
    for (const auto& q : branch.points)
        if (q.label == "PD") found = &q;
    REQUIRE(found);
    CHECK(found->parameter == Approx(last.alpha).margin(1e-7));
    CHECK(found->unknowns[0] == Approx(last.unknowns[0]).margin(1e-6));
    // and the multiplier -1 at the curve's point
    double nearest = 1e300;
    for (const FloquetMultiplier& mu : last.stability.multipliers)
        nearest = std::min(nearest, std::abs(mu.value + 1.0));
    CHECK(nearest < 1e-6);
}
