// The solver's bound (XPPAUT's BOUND): a system whose state leaves |y_i| <= bound ends Escaped at
// the first accepted step beyond it, on every path of the driver (adaptive, fixed-step, with
// events, maps). Reference: y' = y^2, y(0) = y0 blows up at t = 1/y0 and passes y = B at
// t_B = 1/y0 - 1/B exactly; without a bound the same run ends in a failure.
#include "bif/integrate.h"
#include "bif/steppers/dopri5.h"
#include "bif/steppers/iteration.h"
#include "bif/steppers/rk4.h"
#include "bif/steppers/rkck45.h"
#include "test_models.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

using namespace testmodels;

// y' = y^2 (blow-up at t = 1/y0); with an event on y - 100 that changes nothing, for the driver's
// path with events.
template <int Events>
struct BlowUp : Defaults {
    static constexpr int num_states = 1;
    static constexpr int num_events = Events;
    static constexpr int dimension() { return 1; }
    static constexpr int event_count() { return Events; }
    static void rhs(real, const real* y, const real*, real* f) { f[0] = y[0] * y[0]; }
    static void jacobian(real, const real* y, const real*, real* J) { J[0] = 2 * y[0]; }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = 0; }
    static void events(real, const real* y, const real*, real* g) {
        if (Events > 0) g[0] = y[0] - 100;
    }
};

// The logistic map x -> r x (1 - x), r in p[0]; escapes for r > 4 from x = 1/2.
struct Logistic : Defaults {
    static constexpr int num_states = 1;
    [[maybe_unused]] static constexpr int num_params = 1;
    static constexpr int num_param_slots = 1;
    static constexpr int dimension() { return 1; }
    static constexpr int param_slot_count() { return 1; }
    static void rhs(real, const real* y, const real* p, real* f) { f[0] = p[0] * y[0] * (1 - y[0]); }
    static void jacobian(real, const real* y, const real* p, real* J) { J[0] = p[0] * (1 - 2 * y[0]); }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = 0; }
};

template <class Model, class Stepper>
bif::SystemState<Model> run(bif::SolverSettings<double, 1> set, double y0, double t_end,
                            double* p = nullptr) {
    const Model m{};
    auto s = bif::make_state<Model>(0.0, &y0, 1);
    Stepper st;
    double none[1] = {0.0};
    bif::integrate(m, st, s, p ? p : none, t_end, set);
    return s;
}

} // namespace

TEST_CASE("y' = y^2 with bound 1e3 escapes just past t = 1/y0 - 1/1000", "[engine][kernels][bound]") {
    const double y0 = 2.0, bound = 1e3, t_b = 1 / y0 - 1 / bound;
    auto adaptive = bif::make_settings<double, 1>(1e-9, 1e-9);
    adaptive.bound = bound;
    const auto check = [&](const auto& s, double slack) {
        CHECK(s.status == bif::Status::Escaped);
        CHECK(s.y[0] > bound);
        // the step that left the box ends past t_b and started before it: the state was within
        CHECK(s.t >= t_b);
        CHECK(s.t <= t_b + slack);
        // the kept state is the solution at the step's end (exact up to the tolerance)
        CHECK(s.y[0] == Approx(1 / (1 / y0 - s.t)).epsilon(1e-5));
    };
    // near y = 1e3 the solution's time scale is 1/y = 1e-3: the steps there are a fraction of it
    SECTION("adaptive, no events") {
        check(run<BlowUp<0>, bif::Dopri5<BlowUp<0>>>(adaptive, y0, 1.0), 5e-4);
    }
    SECTION("adaptive, with events") {
        check(run<BlowUp<1>, bif::Rkck45<BlowUp<1>>>(adaptive, y0, 1.0), 5e-4);
    }
    SECTION("fixed-step rk4") {
        auto fixed = bif::fixed_step_settings<double, 1>(1e-6);
        fixed.bound = bound;
        check(run<BlowUp<0>, bif::Rk4<BlowUp<0>>>(fixed, y0, 1.0), 1e-6);
    }
    SECTION("without a bound the run fails instead") {
        const auto s =
            run<BlowUp<0>, bif::Dopri5<BlowUp<0>>>(bif::make_settings<double, 1>(1e-9, 1e-9), y0, 1.0);
        CHECK(s.status != bif::Status::Escaped);
        CHECK(bif::is_final(s.status));
    }
}

TEST_CASE("an initial state beyond the bound escapes before any step", "[engine][kernels][bound]") {
    auto set = bif::make_settings<double, 1>(1e-9, 1e-9);
    set.bound = 1.0;
    const auto s = run<BlowUp<0>, bif::Dopri5<BlowUp<0>>>(set, -2.0, 1.0); // y' = y^2 decays from -2
    CHECK(s.status == bif::Status::Escaped);
    CHECK(s.t == 0.0);
    CHECK(s.accepted == 0);
}

TEST_CASE("the logistic map escapes at r = 4.2 from 1/2, not at r = 3.9", "[engine][kernels][bound][maps]") {
    auto set = bif::fixed_step_settings<double, 1>(1.0);
    set.bound = 100;
    // reference: the orbit iterated here, the first iterate with |x| > 100
    const auto first_beyond = [](double r) {
        double x = 0.5;
        for (int n = 1; n <= 1000; ++n) {
            x = r * x * (1 - x);
            if (std::fabs(x) > 100) return n;
        }
        return -1;
    };
    double r = 4.2;
    const auto escaped = run<Logistic, bif::Iteration<Logistic>>(set, 0.5, 1000.0, &r);
    REQUIRE(first_beyond(4.2) > 0);
    CHECK(escaped.status == bif::Status::Escaped);
    CHECK(escaped.t == double(first_beyond(4.2)));
    r = 3.9;
    REQUIRE(first_beyond(3.9) < 0);
    const auto bounded = run<Logistic, bif::Iteration<Logistic>>(set, 0.5, 1000.0, &r);
    CHECK(bounded.status == bif::Status::Ok);
    CHECK(bounded.t == 1000.0);
}
