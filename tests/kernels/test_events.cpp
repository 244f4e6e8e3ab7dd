// Events: exact location on the dense output, resets, directions, stop counts, several crossings
// inside one step, and the equilibrium guard; all against analytic crossing times.
#include "test_models.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace {

using namespace testmodels;
const double pi = std::acos(-1.0);

struct Hit {
    int index;
    int count;
    double t;
    double y0_before;
    double y0_after;
};

// Records every event and the time span covered by on_step calls (which must tile the run).
struct EventLog {
    std::vector<Hit> hits;
    double covered = 0;
    double last_t1 = 0;
    bool contiguous = true;
    template <class View>
    void on_step(const View& v) {
        if (covered > 0 && v.t0 != last_t1) contiguous = false;
        covered += v.t1 - v.t0;
        last_t1 = v.t1;
    }
    template <class H>
    void on_event(const H& e) {
        hits.push_back({e.index, e.count, e.t, e.y_before[0], e.y_after[0]});
    }
};

template <class M>
using Rkc = bif::Rkc<M>;

} // namespace

TEST_CASE("XPPAUT's example x'=1, global 1 x-1 {x=0} gives x = 0.2 at t = 1.2", "[engine][kernels][events]") {
    const SawTooth m{};
    const double x0[1] = {0.0};
    EventLog log;
    SECTION("RK4 with XPPAUT's DT = 0.05") {
        const auto st =
            kt::run<bif::Rk4>(m, x0, 0.0, 1.2, bif::fixed_step_settings<double, 1>(0.05), nullptr, &log);
        REQUIRE(st.status == bif::Status::Ok);
        CHECK(st.y[0] == Approx(0.2).margin(1e-12));
    }
    SECTION("DOPRI5 with a step far longer than the period") {
        auto s = bif::make_settings<double, 1>(1e-8, 1e-8);
        s.initial_step = 0.9;
        const auto st = kt::run<bif::Dopri5>(m, x0, 0.0, 1.2, s, nullptr, &log);
        REQUIRE(st.status == bif::Status::Ok);
        CHECK(st.y[0] == Approx(0.2).margin(1e-12));
    }
    REQUIRE(log.hits.size() == 1);
    CHECK(log.hits[0].t == Approx(1.0).margin(1e-12));
    CHECK(log.hits[0].y0_before == Approx(1.0).margin(1e-12));
    CHECK(log.hits[0].y0_after == 0.0);
    CHECK(log.covered == Approx(1.2).margin(1e-12));
    CHECK(log.contiguous);
}

TEST_CASE("bouncing ball impacts at the analytic times", "[engine][kernels][events]") {
    const BouncingBall m{};
    const double g = 9.81, e = 0.8, h0 = 10.0;
    // t_1 = sqrt(2 h0 / g); each flight after an impact at speed v lasts 2 v / g, v_k = e^k g t_1
    std::vector<double> impacts{std::sqrt(2 * h0 / g)};
    double v = g * impacts[0];
    for (int k = 1; k < 8; ++k) {
        v *= e;
        impacts.push_back(impacts.back() + 2 * v / g);
    }
    const double y0[2] = {h0, 0.0};
    auto check = [&](auto run_once, double tol) {
        EventLog log;
        const auto st = run_once(log);
        REQUIRE(st.status == bif::Status::Ok);
        REQUIRE(log.hits.size() == impacts.size());
        for (std::size_t k = 0; k < impacts.size(); ++k) {
            CHECK(log.hits[k].t == Approx(impacts[k]).margin(tol));
            CHECK(log.hits[k].count == int(k + 1));
        }
    };
    const double t_end = impacts.back() + 0.01;
    double p[2] = {g, e};
    check(
        [&](EventLog& log) {
            return kt::run<bif::Dopri5>(m, y0, 0.0, t_end, bif::make_settings<double, 2>(1e-10, 1e-10), p,
                                        &log);
        },
        1e-9);
    check(
        [&](EventLog& log) {
            return kt::run<bif::Rkck45>(m, y0, 0.0, t_end, bif::make_settings<double, 2>(1e-10, 1e-10), p,
                                        &log);
        },
        1e-9);
    check(
        [&](EventLog& log) {
            return kt::run<bif::Rodas4>(m, y0, 0.0, t_end, bif::make_settings<double, 2>(1e-8, 1e-8), p,
                                        &log);
        },
        1e-9);
    // the motion is quadratic in t: RK4 and the cubic Hermite interpolant are exact
    check(
        [&](EventLog& log) {
            return kt::run<bif::Rk4>(m, y0, 0.0, t_end, bif::fixed_step_settings<double, 2>(0.1), p, &log);
        },
        1e-11);
}

TEST_CASE("event directions select rising, falling or all crossings", "[engine][kernels][events]") {
    // x = cos t on [0, 10]: falling zeros at pi/2 and 5pi/2, a rising zero at 3pi/2
    const double y0[2] = {1.0, 0.0};
    const auto s = bif::make_settings<double, 2>(1e-10, 1e-10);
    EventLog up, down, both;
    kt::run<bif::Dopri5>(OscillatorDirected<1>{}, y0, 0.0, 10.0, s, nullptr, &up);
    kt::run<bif::Dopri5>(OscillatorDirected<-1>{}, y0, 0.0, 10.0, s, nullptr, &down);
    kt::run<bif::Dopri5>(OscillatorDirected<2>{}, y0, 0.0, 10.0, s, nullptr, &both);
    REQUIRE(up.hits.size() == 1);
    CHECK(up.hits[0].t == Approx(1.5 * pi).margin(1e-8));
    REQUIRE(down.hits.size() == 2);
    CHECK(down.hits[0].t == Approx(0.5 * pi).margin(1e-8));
    CHECK(down.hits[1].t == Approx(2.5 * pi).margin(1e-8));
    REQUIRE(both.hits.size() == 3);
    for (int k = 0; k < 3; ++k)
        CHECK(both.hits[k].t == Approx((0.5 + k) * pi).margin(1e-8));
}

TEST_CASE("XPPAUT's sign 0 fires only on an exact zero at a step end", "[engine][kernels][events]") {
    const double y0[2] = {1.0, 0.0};
    EventLog log;
    kt::run<bif::Rk4>(OscillatorDirected<0>{}, y0, 0.0, 10.0, bif::fixed_step_settings<double, 2>(0.01),
                      nullptr, &log);
    CHECK(log.hits.empty());
    // x' = 1 from x = -1 with g = x: x is exactly 0 at the step end t = 1 (steps of 0.25 are exact)
    struct Ramp : SawTooth {
        static void events(real, const real* y, const real*, real* g) { g[0] = y[0]; }
        static int event_direction(int) { return 0; }
        static bool apply_reset(int, real, real*, real*) { return false; }
    };
    const double x0[1] = {-1.0};
    EventLog ramp;
    kt::run<bif::Rk4>(Ramp{}, x0, 0.0, 2.0, bif::fixed_step_settings<double, 1>(0.25), nullptr, &ramp);
    REQUIRE(ramp.hits.size() == 1);
    CHECK(ramp.hits[0].t == 1.0);
}

TEST_CASE("a system stops at the n-th crossing of an event", "[engine][kernels][events]") {
    const double y0[2] = {1.0, 0.0};
    bif::EventSettings<double, 1> ev;
    ev.stop_after[0] = 2;
    EventLog log;
    const auto st = kt::run<bif::Dopri5>(OscillatorDirected<2>{}, y0, 0.0, 100.0,
                                         bif::make_settings<double, 2>(1e-10, 1e-10), nullptr, &log, &ev);
    CHECK(st.status == bif::Status::StoppedByEvent);
    CHECK(st.stop_event == 0);
    CHECK(st.event_count[0] == 2);
    CHECK(st.t == Approx(1.5 * pi).margin(1e-8));
    CHECK(st.y[0] == Approx(0.0).margin(1e-8));
    CHECK(st.y[1] == Approx(1.0).margin(1e-8));
    CHECK(log.hits.size() == 2);
}

TEST_CASE("two crossings inside one step are handled in time order", "[engine][kernels][events]") {
    // x' = 1 over one RK4 step of length 1: event 1 (x = 0.3) comes before event 0 (x = 0.7)
    const double x0[1] = {0.0};
    double p[2] = {0.7, 0.3};
    EventLog log;
    const auto st =
        kt::run<bif::Rk4>(TwoThresholds{}, x0, 0.0, 1.0, bif::fixed_step_settings<double, 1>(1.0), p, &log);
    CHECK(st.status == bif::Status::Ok);
    CHECK(st.accepted == 1);
    REQUIRE(log.hits.size() == 2);
    CHECK(log.hits[0].index == 1);
    CHECK(log.hits[0].t == Approx(0.3).margin(1e-14));
    CHECK(log.hits[1].index == 0);
    CHECK(log.hits[1].t == Approx(0.7).margin(1e-14));
    CHECK(log.covered == Approx(1.0).margin(1e-14));
    CHECK(log.contiguous);
}

TEST_CASE("coincident events both fire", "[engine][kernels][events]") {
    const double x0[1] = {0.0};
    double p[2] = {0.5, 0.5};
    EventLog log;
    kt::run<bif::Rk4>(TwoThresholds{}, x0, 0.0, 1.0, bif::fixed_step_settings<double, 1>(1.0), p, &log);
    REQUIRE(log.hits.size() == 2);
    CHECK(log.hits[0].t == Approx(0.5).margin(1e-14));
    CHECK(log.hits[1].t == Approx(0.5).margin(1e-14));
}

TEST_CASE("Poincare section of the harmonic oscillator at the analytic times", "[engine][kernels][events]") {
    // rising zeros of x = cos t: t_k = 3pi/2 + 2 pi k
    const double y0[2] = {1.0, 0.0};
    auto check = [&](const EventLog& log, double tol) {
        REQUIRE(log.hits.size() == 16);
        for (std::size_t k = 0; k < log.hits.size(); ++k)
            CHECK(log.hits[k].t == Approx(1.5 * pi + 2 * pi * k).margin(tol));
    };
    EventLog dopri, rk4, rodas, rkc;
    kt::run<bif::Dopri5>(OscillatorDirected<1>{}, y0, 0.0, 100.0, bif::make_settings<double, 2>(1e-11, 1e-11),
                         nullptr, &dopri);
    check(dopri, 1e-8);
    kt::run<bif::Rk4>(OscillatorDirected<1>{}, y0, 0.0, 100.0, bif::fixed_step_settings<double, 2>(0.01),
                      nullptr, &rk4);
    check(rk4, 1e-8);
    kt::run<bif::Rodas4>(OscillatorDirected<1>{}, y0, 0.0, 100.0, bif::make_settings<double, 2>(1e-9, 1e-9),
                         nullptr, &rodas);
    check(rodas, 1e-6);
    kt::run<Rkc>(OscillatorDirected<1>{}, y0, 0.0, 100.0, bif::make_settings<double, 2>(1e-8, 1e-8), nullptr,
                 &rkc);
    check(rkc, 1e-4);
}

TEST_CASE("the equilibrium guard stops a trajectory resting inside an event zone",
          "[engine][kernels][events]") {
    const double y0[1] = {1.0};
    bif::EventSettings<double, 1> ev;
    ev.tolerance[0] = 1e-3;
    ev.equilibrium_steps = 20;
    const auto s = bif::fixed_step_settings<double, 1>(0.1);
    const auto st =
        kt::run<bif::Rk4>(Relax{}, y0, 0.0, 100.0, s, nullptr, static_cast<bif::NoObserver*>(nullptr), &ev);
    CHECK(st.status == bif::Status::StoppedByEvent);
    CHECK(st.stop_event == 0);
    // y = e^-t enters the zone at t = ln 1000 = 6.91; 20 steps of 0.1 later the guard stops it
    CHECK(st.t == Approx(std::log(1000.0) + 2.0).margin(0.11));
}
