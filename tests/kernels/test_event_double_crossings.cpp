// Events crossed more than once inside one accepted step, which the end points of the step cannot
// show: a grazing orbit (two crossings per step at the tolerance in use), three crossings of a
// cubic in one step, and a reset at the first of two crossings. Each case fails with
// BIF_EVENT_SAMPLES 0 (end points only); every located time is checked against its analytic value.
#include "test_models.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace {

using namespace testmodels;
const double pi = std::acos(-1.0);

// The cases below are laid out for samples at quarter steps at least (the default).
static_assert(BIF_EVENT_SAMPLES >= 3, "the double crossings here need at least 3 samples per step");

// |actual - expected| <= margin, with no relative slack (Approx's default is 1e-5 relative).
Approx near(double expected, double margin) {
    return Approx(expected).epsilon(0).margin(margin);
}

// x'' = -x from (x, v) = (-1, 0), so x = -cos t, with the event g = x - p[0] (level c = p[0] just
// below the maximum 1): x stays above c for 2 arccos(c) around each t = pi + 2 pi k.
template <int Direction>
struct GrazingOscillator : Oscillator {
    static constexpr int num_params = 1;
    static constexpr int num_param_slots = 1;
    static constexpr int param_slot_count() { return 1; }
    static void events(real, const real* y, const real* p, real* g) { g[0] = y[0] - p[0]; }
    static int event_direction(int) { return Direction; }
};

// A ball thrown up from the floor x = 0 at speed V under unit gravity (x' = v, v' = -1), between
// a ceiling at x = p[0] (event 0, any direction) and the floor (event 1, falling); both reflect the
// velocity. Every flight is a parabola, which every method here and its dense output reproduce
// exactly, so the located times are exact to rounding.
struct BallBetweenWalls : Defaults {
    static constexpr int num_states = 2;
    [[maybe_unused]] static constexpr int num_params = 1; // the model contract's, unread here
    static constexpr int num_param_slots = 1;
    static constexpr int num_events = 2;
    static constexpr int dimension() { return 2; }
    static constexpr int param_slot_count() { return 1; }
    static constexpr int event_count() { return 2; }
    static void rhs(real, const real* y, const real*, real* f) {
        f[0] = y[1];
        f[1] = -1;
    }
    static void jacobian(real, const real*, const real*, real* J) {
        J[0] = 0;
        J[1] = 1;
        J[2] = 0;
        J[3] = 0;
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = 0; }
    static void events(real, const real* y, const real* p, real* g) {
        g[0] = y[0] - p[0];
        g[1] = y[0];
    }
    static int event_direction(int k) { return k == 0 ? 2 : -1; }
    static bool apply_reset(int, real, real* y, real*) {
        y[1] = -y[1];
        return false;
    }
};

// x' = (t - r0)(t - r1) + (t - r0)(t - r2) + (t - r1)(t - r2) with x(0) = -r0 r1 r2, so that
// x = (t - r0)(t - r1)(t - r2): three crossings of g = x, any direction. RK4's Hermite dense output
// and DOPRI5's are exact for a cubic.
struct CubicPath : Defaults {
    static constexpr double r0 = 0.2, r1 = 0.3, r2 = 0.9;
    static constexpr int num_states = 1;
    static constexpr int num_events = 1;
    static constexpr int dimension() { return 1; }
    static constexpr int event_count() { return 1; }
    static void rhs(real t, const real*, const real*, real* f) {
        f[0] = (t - r0) * (t - r1) + (t - r0) * (t - r2) + (t - r1) * (t - r2);
    }
    static void jacobian(real, const real*, const real*, real* J) { J[0] = 0; }
    static void time_derivative(real t, const real*, const real*, real* ft) {
        ft[0] = 6 * t - 2 * (r0 + r1 + r2);
    }
    static void events(real, const real* y, const real*, real* g) { g[0] = y[0]; }
    static int event_direction(int) { return 2; }
};

struct Hit {
    int index;
    double t;
    double v_before; // y[1] at the crossing, before the resets (0 for one-dimensional models)
};

struct Step {
    double t0, t1;
};

// Records the events and every accepted step as a whole ([t_start, t_end], even when events split it)
// of a model with `Dim` states.
template <int Dim>
struct CrossingLog {
    std::vector<Hit> hits;
    std::vector<Step> steps;
    template <class View>
    void on_step(const View& v) {
        if (steps.empty() || steps.back().t0 != v.t_start) steps.push_back({v.t_start, v.t_end});
    }
    template <class H>
    void on_event(const H& e) {
        double v_before = 0;
        if constexpr (Dim > 1) v_before = e.y_before[1];
        hits.push_back({e.index, e.t, v_before});
    }
};

// Whether some accepted step holds both t_a and t_b inside it.
bool same_step(const std::vector<Step>& steps, double t_a, double t_b) {
    for (const Step& s : steps)
        if (s.t0 < t_a && t_b < s.t1) return true;
    return false;
}

// The crossings of x = -cos t through c = cos a on [0, t_end], in time order: rising at
// pi - a + 2 pi k, falling at pi + a + 2 pi k; direction +1, -1 or 2 (both).
std::vector<double> crossings_of_level(double a, double t_end, int direction) {
    std::vector<double> t;
    for (int k = 0; pi - a + 2 * pi * k < t_end; ++k) {
        if (direction != -1) t.push_back(pi - a + 2 * pi * k);
        if (direction != 1 && pi + a + 2 * pi * k < t_end) t.push_back(pi + a + 2 * pi * k);
    }
    return t;
}

// Both crossings of each excursion above the level, of a run that shows them in one step at least
// once (otherwise the case would not test anything).
template <template <class> class Stepper, int Direction>
void check_grazing(double a, const bif::SolverSettings<double, 2>& set, double tol) {
    const double t_end = 40 * pi; // 20 excursions
    const double y0[2] = {-1.0, 0.0};
    double p[1] = {std::cos(a)};
    CrossingLog<2> log;
    const auto st = kt::run<Stepper>(GrazingOscillator<Direction>{}, y0, 0.0, t_end, set, p, &log);
    REQUIRE(st.status == bif::Status::Ok);
    const std::vector<double> all = crossings_of_level(a, t_end, 2);
    int pairs_in_one_step = 0;
    for (std::size_t k = 0; k + 1 < all.size(); k += 2)
        pairs_in_one_step += same_step(log.steps, all[k], all[k + 1]) ? 1 : 0;
    CHECK(pairs_in_one_step > 0);
    const std::vector<double> expected = crossings_of_level(a, t_end, Direction);
    REQUIRE(log.hits.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k)
        CHECK(log.hits[k].t == near(expected[k], tol));
}

} // namespace

TEST_CASE("a grazing orbit: both crossings of an excursion shorter than a step are found",
          "[engine][kernels][events]") {
    // The excursion above the level lasts 2a = 0.06; near x = 1 the controller takes steps of about
    // 0.1 (DOPRI5) and 0.13 (RKCK45) at tolerance 1e-8, so many excursions begin and end inside one
    // step, while the default samples (quarter steps) are closer than 0.06. A located time is off by
    // the global error in x (about 1e-6 after 20 periods) over |x'| = sin a = 0.03 at the crossing.
    const double a = 0.03;
    const auto adaptive = bif::make_settings<double, 2>(1e-8, 1e-8);
    SECTION("DOPRI5, both directions") {
        check_grazing<bif::Dopri5, 2>(a, adaptive, 1e-4);
    }
    SECTION("DOPRI5, rising only") {
        check_grazing<bif::Dopri5, 1>(a, adaptive, 1e-4);
    }
    SECTION("DOPRI5, falling only") {
        check_grazing<bif::Dopri5, -1>(a, adaptive, 1e-4);
    }
    SECTION("RKCK45, both directions") {
        check_grazing<bif::Rkck45, 2>(a, adaptive, 1e-4);
    }
    // RK4's amplitude error after t = 40 pi, h^6 / 144 per step, is 9e-6, i.e. 3e-4 in time
    SECTION("RK4 with a fixed step of 0.1") {
        check_grazing<bif::Rk4, 2>(a, bif::fixed_step_settings<double, 2>(0.1), 1e-3);
    }
}

TEST_CASE("three crossings inside one step are found in time order", "[engine][kernels][events]") {
    // The end points show one crossing (x(0) < 0 < x(1)); a secant through them lands past the
    // first two roots, so without samples the earliest found would be r2 = 0.9.
    const double x0[1] = {-CubicPath::r0 * CubicPath::r1 * CubicPath::r2};
    const double roots[3] = {CubicPath::r0, CubicPath::r1, CubicPath::r2};
    auto check = [&](const CrossingLog<1>& log) {
        REQUIRE(log.steps.size() == 1);
        REQUIRE(log.hits.size() == 3);
        for (int k = 0; k < 3; ++k)
            CHECK(log.hits[k].t == near(roots[k], 1e-13));
    };
    CrossingLog<1> rk4, dopri;
    kt::run<bif::Rk4>(CubicPath{}, x0, 0.0, 1.0, bif::fixed_step_settings<double, 1>(1.0), nullptr, &rk4);
    check(rk4);
    auto s = bif::make_settings<double, 1>(1e-6, 1e-6);
    s.initial_step = 1.0;
    kt::run<bif::Dopri5>(CubicPath{}, x0, 0.0, 1.0, s, nullptr, &dopri);
    check(dopri);
}

TEST_CASE("a reset at the first of two crossings in a step ends the step there",
          "[engine][kernels][events]") {
    // Thrown at V = 0.9, the ball would stay above the ceiling c = (V^2 - u^2) / 2 for 2u = 0.06
    // around its apex; it reaches the ceiling at t_c = V - u = 0.87, is reflected and lands at 2 t_c,
    // and so on: a wall every t_c. Steps of 0.2 from each reset put the ceiling at 0.07 into a step
    // and the crossing that the free flight would make next at 0.13, inside the same step: after
    // the reset it must not be reported from that step's dense output.
    const double V = 0.9, u = 0.03, t_c = V - u, t_end = 20.0;
    const double y0[2] = {0.0, V};
    double p[1] = {(V * V - u * u) / 2};
    auto check = [&](const CrossingLog<2>& log) {
        REQUIRE(log.hits.size() == std::size_t(t_end / t_c));
        for (std::size_t k = 0; k < log.hits.size(); ++k) {
            const Hit& hit = log.hits[k];
            CHECK(hit.t == near((k + 1) * t_c, 1e-12));
            CHECK(hit.index == int(k % 2)); // ceiling and floor alternate
            if (hit.index == 0) {
                CHECK(hit.v_before == near(u, 1e-12)); // rising, never the falling one
                CHECK(same_step(log.steps, hit.t, hit.t + 2 * u));
            }
        }
    };
    auto adaptive = bif::make_settings<double, 2>(1e-8, 1e-8);
    adaptive.initial_step = adaptive.max_step = 0.2;
    for (auto* run : {&kt::run<bif::Dopri5, BallBetweenWalls, CrossingLog<2>>,
                      &kt::run<bif::Rkck45, BallBetweenWalls, CrossingLog<2>>}) {
        CrossingLog<2> log;
        REQUIRE(run(BallBetweenWalls{}, y0, 0.0, t_end, adaptive, p, &log, nullptr).status ==
                bif::Status::Ok);
        check(log);
    }
    CrossingLog<2> rk4;
    REQUIRE(kt::run<bif::Rk4>(BallBetweenWalls{}, y0, 0.0, t_end, bif::fixed_step_settings<double, 2>(0.2), p,
                              &rk4)
                .status == bif::Status::Ok);
    check(rk4);
}
