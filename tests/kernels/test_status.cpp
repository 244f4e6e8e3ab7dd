// Per-system status: a system that fails stops alone with its own status; its neighbours in the
// same loop (the CPU backend's loop, the GPU's threads) finish normally and nothing else is touched.
#include "test_models.h"
#include "test_support.h"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>

namespace {

using namespace testmodels;

struct Ensemble {
    static constexpr int size = 5;
    std::array<bif::SystemState<Decay>, size> state;
    std::array<std::array<double, 2>, size> params;
};

// Integrates every system of the loop the way a backend does: one state, stepper and parameter
// row per system, the same settings for all.
template <template <class> class Stepper>
void run_loop(Ensemble& e, double t1, const bif::SolverSettings<double, 1>& s, int intervals) {
    const Decay m{};
    for (int i = 0; i < Ensemble::size; ++i) {
        const double y0[1] = {1.0};
        e.state[i] = bif::make_state<Decay>(0.0, y0, 1);
        Stepper<Decay> stepper;
        for (int k = 1; k <= intervals; ++k)
            bif::integrate(m, stepper, e.state[i], e.params[i].data(), t1 * k / intervals, s);
    }
}

} // namespace

TEST_CASE("a NaN right-hand side marks only its own system NonFinite", "[engine][kernels][status]") {
    Ensemble e;
    for (auto& p : e.params)
        p = {1.0, 0.25};
    e.params[2] = {1.0, -1.0}; // sqrt(-1): NaN from the first evaluation
    run_loop<bif::Dopri5>(e, 5.0, bif::make_settings<double, 1>(1e-8, 1e-8), 4);
    for (int i = 0; i < Ensemble::size; ++i) {
        INFO("system " << i);
        if (i == 2) {
            CHECK(e.state[i].status == bif::Status::NonFinite);
            CHECK(e.state[i].t == 0.0);
            CHECK(e.state[i].y[0] == 1.0);
        } else {
            CHECK(e.state[i].status == bif::Status::Ok);
            CHECK(e.state[i].t == 5.0);
            // y = 0.5 + 0.5 e^-t
            CHECK(e.state[i].y[0] == Approx(0.5 + 0.5 * std::exp(-5.0)).epsilon(1e-7));
        }
    }
}

TEST_CASE("a NaN that appears mid-run stops that system at its last good point",
          "[engine][kernels][status]") {
    // y' = -y + sqrt(p1) with p1 = 0.25 until a reset-free parameter change between calls sets it negative
    const Decay m{};
    const double y0[1] = {1.0};
    auto st = bif::make_state<Decay>(0.0, y0, 1);
    bif::Rkck45<Decay> stepper;
    double p[2] = {1.0, 0.25};
    const auto s = bif::make_settings<double, 1>(1e-8, 1e-8);
    REQUIRE(bif::integrate(m, stepper, st, p, 1.0, s) == bif::Status::Ok);
    p[1] = -1.0;
    bif::state_changed(st, stepper);
    CHECK(bif::integrate(m, stepper, st, p, 2.0, s) == bif::Status::NonFinite);
    CHECK(st.t == 1.0);
    CHECK(std::isfinite(st.y[0]));
    // a final status is kept: later calls do nothing
    p[1] = 0.25;
    CHECK(bif::integrate(m, stepper, st, p, 3.0, s) == bif::Status::NonFinite);
    CHECK(st.t == 1.0);
}

TEST_CASE("a tiny step budget reports StepBudgetSpent for that system only", "[engine][kernels][status]") {
    Ensemble e;
    for (auto& p : e.params)
        p = {1.0, 0.25};
    e.params[1] = {1e4, 0.25}; // stiff: the explicit method needs ~1e4 steps per unit time
    auto s = bif::make_settings<double, 1>(1e-6, 1e-6);
    s.max_steps = 500;
    run_loop<bif::Dopri5>(e, 5.0, s, 1);
    for (int i = 0; i < Ensemble::size; ++i) {
        INFO("system " << i);
        if (i == 1) {
            CHECK(e.state[i].status == bif::Status::StepBudgetSpent);
            CHECK(e.state[i].t < 5.0);
            CHECK(e.state[i].t > 0.0);
            CHECK(e.state[i].accepted + e.state[i].rejected == 500);
        } else {
            CHECK(e.state[i].status == bif::Status::Ok);
            CHECK(e.state[i].t == 5.0);
        }
    }
}

TEST_CASE("a step forced below the minimum step reports StepUnderflow", "[engine][kernels][status]") {
    Ensemble e;
    for (auto& p : e.params)
        p = {1.0, 0.25};
    e.params[3] = {1e8, 0.25}; // stability needs h < 3.3e-8 for DOPRI5
    auto s = bif::make_settings<double, 1>(1e-6, 1e-6);
    s.min_step = 1e-6;
    run_loop<bif::Dopri5>(e, 5.0, s, 2);
    for (int i = 0; i < Ensemble::size; ++i) {
        INFO("system " << i);
        CHECK(e.state[i].status == (i == 3 ? bif::Status::StepUnderflow : bif::Status::Ok));
    }
    // the same stiff system is easy for Rodas4 (which resolves the 1e-8 transient with small steps)
    Ensemble r;
    for (auto& p : r.params)
        p = {1e8, 0.25};
    s.min_step = 0;
    run_loop<bif::Rodas4>(r, 5.0, s, 2);
    for (int i = 0; i < Ensemble::size; ++i) {
        CHECK(r.state[i].status == bif::Status::Ok);
        CHECK(r.state[i].y[0] == Approx(0.5e-8).epsilon(1e-6));
        CHECK(r.state[i].accepted < 200);
    }
}

TEST_CASE("the step size carries over from one interval to the next", "[engine][kernels][status]") {
    // 100 intervals of length 1 from a tiny initial step (1e-6, as MPGOS users set it): carrying h
    // costs at most one shortened step per interval; restarting each interval from the initial
    // step (MPGOS's behaviour) pays the ramp 1e-6 -> 0.1 every time
    const Oscillator m{};
    const double y0[2] = {1.0, 0.0};
    auto s = bif::make_settings<double, 2>(1e-8, 1e-8);
    s.initial_step = 1e-6;
    double p[1] = {0};
    auto once = bif::make_state<Oscillator>(0.0, y0, 2);
    bif::Dopri5<Oscillator> a;
    bif::integrate(m, a, once, p, 100.0, s);
    auto carried = bif::make_state<Oscillator>(0.0, y0, 2);
    bif::Dopri5<Oscillator> b;
    auto restarted = carried;
    bif::Dopri5<Oscillator> c;
    for (int k = 1; k <= 100; ++k) {
        REQUIRE(bif::integrate(m, b, carried, p, 1.0 * k, s) == bif::Status::Ok);
        restarted.h = 0;
        REQUIRE(bif::integrate(m, c, restarted, p, 1.0 * k, s) == bif::Status::Ok);
    }
    INFO("one call " << once.accepted << ", carried " << carried.accepted << ", restarted "
                     << restarted.accepted);
    CHECK(carried.accepted <= once.accepted + 100);
    CHECK(restarted.accepted > carried.accepted + 300);
    CHECK(carried.y[0] == Approx(std::cos(100.0)).margin(1e-6));
}

TEST_CASE("float time is accumulated with compensation", "[engine][kernels][status]") {
    // 10 intervals of 1000 RK4 steps of 0.01 in float: plain t += h drifts by ~ulp(100)/2 per step
    // (4e-3 after 1000 steps, 40% of a step), which adds slivers of steps at interval ends and
    // shifts the phase of a forcing
    const FloatForced m{};
    const float y0[1] = {0.0f};
    float p[1] = {0};
    auto st = bif::make_state<FloatForced>(0.0f, y0, 1);
    bif::Rk4<FloatForced> stepper;
    const auto s = bif::fixed_step_settings<float, 1>(0.01f);
    for (int k = 1; k <= 10; ++k)
        REQUIRE(bif::integrate(m, stepper, st, p, 10.0f * float(k), s) == bif::Status::Ok);
    CHECK(st.accepted == 10000);
    // x = sin t: the forcing was sampled at the right times
    CHECK(st.y[0] == Approx(std::sin(100.0)).margin(2e-4));
}
