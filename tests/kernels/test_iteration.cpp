// The map iteration stepper (bif/steppers/iteration.h) through the integration driver: every step
// is one iterate at an integer time, against a plain loop; events fire at the iterate where their
// value crosses, with resets applied to that iterate; the Lyapunov exponent of the tangent map
// against log|f'| averaged along the same orbit; float runs as double ones.
#include "bif/integrators.h"
#include "test_models.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

// The logistic map x -> r x (1 - x), r = p[0].
template <class Real>
struct Logistic : testmodels::Defaults {
    using real = Real;
    static constexpr int num_states = 1;
    static constexpr int num_params = 1;
    static constexpr int num_param_slots = 1;
    static constexpr int dimension() { return 1; }
    static constexpr int param_slot_count() { return 1; }
    static void rhs(real, const real* y, const real* p, real* f) { f[0] = p[0] * y[0] * (real(1) - y[0]); }
    static void jacobian(real, const real* y, const real* p, real* J) {
        J[0] = p[0] * (real(1) - real(2) * y[0]);
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = real(0); }
    static void complete_parameters(real*) {}
    static void events(real, const real*, const real*, real*) {}
    static void aux(real, const real*, const real*, real*) {}
    static void observables(real, const real*, const real*, real*) {}
    static bool apply_reset(int, real, real*, real*) { return false; }
};

// A counter x -> x + 1 that an event sends back to 0 once it passes 5.5 (a sawtooth of period 6),
// and whose second component records the time of the last reset.
struct Sawtooth : testmodels::Defaults {
    static constexpr int num_states = 2;
    static constexpr int num_events = 1;
    static constexpr int dimension() { return 2; }
    static constexpr int event_count() { return 1; }
    static void rhs(real, const real* y, const real*, real* f) {
        f[0] = y[0] + 1;
        f[1] = y[1];
    }
    static void jacobian(real, const real*, const real*, real* J) { J[0] = J[3] = 1, J[1] = J[2] = 0; }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = 0; }
    static void events(real, const real* y, const real*, real* g) { g[0] = y[0] - 5.5; }
    static int event_direction(int) { return 1; }
    static bool apply_reset(int, real t, real* y, real*) {
        y[0] = 0;
        y[1] = t;
        return false;
    }
};

template <class Real>
void check_logistic_iterates() {
    using M = Logistic<Real>;
    const M m{};
    Real p[1] = {Real(3.7)};
    const Real y0[1] = {Real(0.2)};
    bif::SystemState<M> s = bif::make_state<M>(Real(0), y0, 1);
    bif::Iteration<M> st;
    auto set = bif::make_settings<Real, 1>(Real(1e-6), Real(1e-6));
    set.initial_step = Real(1);
    set.adaptive = false;
    bif::fill_fixed_step(set);
    Real x = Real(0.2);
    for (int k = 1; k <= 40; ++k) {
        REQUIRE(bif::integrate(m, st, s, p, Real(k), set) == bif::Status::Ok);
        x = Real(3.7) * x * (Real(1) - x);
        REQUIRE(s.t == Real(k));
        REQUIRE(s.y[0] == x); // the same arithmetic, bit for bit
    }
    REQUIRE(bif::integrate(m, st, s, p, Real(1000), set) == bif::Status::Ok);
    CHECK(s.accepted == 1000);
    CHECK(s.t == Real(1000));
}

} // namespace

TEST_CASE("iteration: one iterate per unit of time, as a plain loop", "[kernels][maps]") {
    check_logistic_iterates<double>();
    check_logistic_iterates<float>();
}

TEST_CASE("iteration: a map's events fire at the iterate that crosses, resetting it", "[kernels][maps]") {
    const Sawtooth m{};
    const double y0[2] = {0, -1};
    bif::SystemState<Sawtooth> s = bif::make_state<Sawtooth>(0.0, y0, 2);
    bif::Iteration<Sawtooth> st;
    auto set = bif::make_settings<double, 2>(1e-6, 1e-6);
    set.initial_step = 1;
    set.adaptive = false;
    bif::EventSettings<double, 1> ev;
    bif::NoObserver obs;
    // x: 0 1 2 3 4 5 (6 -> reset 0 at t = 6) 1 2 ... : back at 0 at t = 6, 12, 18
    REQUIRE(bif::integrate(m, st, s, nullptr, 20.0, set, ev, obs) == bif::Status::Ok);
    CHECK(s.t == 20);
    CHECK(s.event_count[0] == 3);
    CHECK(s.y[1] == 18); // the last reset at t = 18, an integer time
    CHECK(s.y[0] == 2);  // 18 -> 0, 19 -> 1, 20 -> 2
    // a stop count ends the run at the iterate of the crossing
    bif::SystemState<Sawtooth> s2 = bif::make_state<Sawtooth>(0.0, y0, 2);
    bif::Iteration<Sawtooth> st2;
    ev.stop_after[0] = 2;
    CHECK(bif::integrate(m, st2, s2, nullptr, 20.0, set, ev, obs) == bif::Status::StoppedByEvent);
    CHECK(s2.t == 12);
}

TEST_CASE("iteration: the tangent map gives the mean of log|f'| along the orbit",
          "[kernels][maps][lyapunov]") {
    using M = Logistic<double>;
    using T = bif::TangentModel<M, 1>;
    const T tm{};
    double p[1] = {3.9};
    double y[T::num_states] = {0.3, 0};
    bif::lyapunov_start(tm, y);
    bif::SystemState<T> s = bif::make_state<T>(0.0, y, tm.dimension());
    bif::Iteration<T> st;
    auto set = bif::make_settings<double, 2>(1e-6, 1e-6);
    set.initial_step = 1;
    set.adaptive = false;
    bif::LyapunovSums<1, double> sums;
    double x = 0.3, log_sum = 0;
    for (int k = 1; k <= 2000; ++k) {
        log_sum += std::log(std::abs(3.9 * (1 - 2 * x))); // f'(x_{k-1}) stretches the k-th iterate
        x = 3.9 * x * (1 - x);
        REQUIRE(bif::integrate(tm, st, s, p, double(k), set) == bif::Status::Ok);
        bif::lyapunov_renormalise(tm, s.y, 1.0, sums);
        bif::state_changed(s, st);
    }
    CHECK(s.y[0] == Approx(x).margin(1e-6)); // the same orbit (chaotic: compared before it drifts)
    CHECK(sums.sum[0] / sums.elapsed == Approx(log_sum / 2000).epsilon(1e-9));
}
