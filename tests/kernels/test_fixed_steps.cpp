// Fixed-step integration of models without events (bif/integrate.h, fixed_steps_without_events):
// how many steps an interval takes, where the last one ends, the step budget, and a system that
// overflows mid-run. The reference is a plain RK4 loop written here (Hairer, Norsett & Wanner I,
// II.1), taking the steps the driver documents: size h, the last one to t_end and at most 1.01 h.
#include "test_models.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

using namespace testmodels;

// y' = y^2, y(0) = 1: y = 1 / (1 - t), infinite at t = 1; RK4 overflows a few steps later.
struct Blowup : Defaults {
    static constexpr int num_states = 1;
    static constexpr int dimension() { return 1; }
    static void rhs(real, const real* y, const real*, real* f) { f[0] = y[0] * y[0]; }
    static void jacobian(real, const real* y, const real*, real* J) { J[0] = 2 * y[0]; }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = 0; }
};

template <class Model>
double rk4_step(const Model& m, double t, double y, double h) {
    double k1, k2, k3, k4, u;
    m.rhs(t, &y, nullptr, &k1);
    u = y + h / 2 * k1;
    m.rhs(t + h / 2, &u, nullptr, &k2);
    u = y + h / 2 * k2;
    m.rhs(t + h / 2, &u, nullptr, &k3);
    u = y + h * k3;
    m.rhs(t + h, &u, nullptr, &k4);
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
}

struct Reference {
    double y;
    long steps;
};

// Steps of h while t + 1.01 h < t_end, then one step to t_end; stops before a non-finite result.
template <class Model>
Reference reference_run(const Model& m, double y, double t0, double t_end, double h) {
    long steps = 0;
    for (bool last = false; !last; ++steps) {
        const double t = t0 + double(steps) * h;
        last = t + 1.01 * h >= t_end;
        const double next = rk4_step(m, t, y, last ? t_end - t : h);
        if (!std::isfinite(next)) break;
        y = next;
    }
    return {y, steps};
}

} // namespace

TEST_CASE("a fixed-step interval takes whole steps and one last step to its end",
          "[engine][kernels][fixed]") {
    const ExpSin m{};
    const double y0[1] = {1.0};
    const auto s = bif::fixed_step_settings<double, 1>(0.001);
    // 1000.5 steps: 1000 of h and a half step; 1000.005 steps: the sliver is folded into the last
    for (const double t_end : {1.0005, 1.000005, 1.0, 0.0004}) {
        INFO("t_end " << t_end);
        const auto r = kt::run<bif::Rk4>(m, y0, 0.0, t_end, s);
        const Reference ref = reference_run(m, 1.0, 0.0, t_end, 0.001);
        CHECK(r.status == bif::Status::Ok);
        CHECK(r.t == t_end);
        CHECK(r.h == 0.001); // the fixed step is not stretched by a last step
        CHECK(long(r.accepted) == ref.steps);
        CHECK(r.y[0] == Approx(ref.y).epsilon(1e-14));
        CHECK(r.y[0] == Approx(ExpSin::exact(t_end)).epsilon(1e-11));
    }
    CHECK(kt::run<bif::Rk4>(m, y0, 0.0, 1.000005, s).accepted == 1000);
    CHECK(kt::run<bif::Rk4>(m, y0, 0.0, 1.0005, s).accepted == 1001);
}

TEST_CASE("a fixed-step run split by the step budget resumes where it stopped", "[engine][kernels][fixed]") {
    const ExpSin m{};
    const double y0[1] = {1.0};
    auto s = bif::fixed_step_settings<double, 1>(0.001);
    s.max_steps = 300;
    double p[1] = {0};
    auto state = bif::make_state<ExpSin>(0.0, y0, 1);
    bif::Rk4<ExpSin> stepper;
    CHECK(bif::integrate(m, stepper, state, p, 1.0, s) == bif::Status::StepBudgetSpent);
    CHECK(state.accepted == 300);
    CHECK(state.t == Approx(0.3).epsilon(1e-15));
    int calls = 1;
    while (bif::integrate(m, stepper, state, p, 1.0, s) == bif::Status::StepBudgetSpent) {
        state.status = bif::Status::Ok;
        ++calls;
    }
    CHECK(calls == 4);
    CHECK(state.status == bif::Status::Ok);
    CHECK(state.t == 1.0);
    CHECK(state.accepted == 1000);
    CHECK(state.y[0] == Approx(reference_run(m, 1.0, 0.0, 1.0, 0.001).y).epsilon(1e-14));
}

TEST_CASE("a fixed-step system that overflows stops at its last finite step", "[engine][kernels][fixed]") {
    const Blowup m{};
    const double y0[1] = {1.0};
    const double h = 0.01;
    const Reference ref = reference_run(m, 1.0, 0.0, 2.0, h);
    REQUIRE(ref.steps > 100);
    REQUIRE(ref.steps < 200);
    // RK4 has no error estimate (the loop tests finiteness once, then repeats checked); Cash-Karp
    // in fixed-step mode tests every step
    const auto rk4 = kt::run<bif::Rk4>(m, y0, 0.0, 2.0, bif::fixed_step_settings<double, 1>(h));
    const auto rkck = kt::run<bif::Rkck45>(m, y0, 0.0, 2.0, bif::fixed_step_settings<double, 1>(h));
    CHECK(rk4.status == bif::Status::NonFinite);
    CHECK(long(rk4.accepted) == ref.steps);
    CHECK(rk4.t == Approx(double(ref.steps) * h).epsilon(1e-15));
    CHECK(rk4.y[0] == Approx(ref.y).epsilon(1e-9));
    CHECK(rkck.status == bif::Status::NonFinite);
    CHECK(std::isfinite(rkck.y[0]));
    CHECK(rkck.t == Approx(double(rkck.accepted) * h).epsilon(1e-15));
    CHECK(rkck.t > 1.0);
}
