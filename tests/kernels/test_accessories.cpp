// Accessories: extrema of observables with their times, event counts and the observables at the
// n-th crossing, per recording interval, against the analytic solution x = sin t, v = cos t.
#include "test_models.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

using namespace testmodels;
const double pi = std::acos(-1.0);

// x = sin t with observable v = x' and the section x = 0 (any direction).
struct SineVelocity : Oscillator {
    static void observables(real, const real* y, const real*, real* o) { o[0] = y[1]; }
};

template <class Model>
struct Recorder {
    bif::AccessorySettings<Model> settings;
    bif::Accessories<Model> acc;
};

template <class Model, template <class> class Stepper>
bif::Accessories<Model> interval_features(double t0, double t1, const bif::SolverSettings<double, 2>& s,
                                          bool refine, int capture = 0) {
    const Model m{};
    const double y0[2] = {0.0, 1.0};
    double p[1] = {0};
    auto st = bif::make_state<Model>(0.0, y0, 2);
    Stepper<Model> stepper;
    bif::EventSettings<double, 1> ev;
    bif::NoObserver none;
    // transient [0, t0) unobserved, then one recording interval [t0, t1]
    if (t0 > 0) bif::integrate(m, stepper, st, p, t0, s, ev, none);
    Recorder<Model> r;
    r.settings.refine_extrema = refine;
    r.settings.capture_at[0] = capture;
    bif::AccessoryObserver<Model> obs{m, r.settings, r.acc};
    obs.begin(st.t, st.y, p);
    REQUIRE(bif::integrate(m, stepper, st, p, t1, s, ev, obs) == bif::Status::Ok);
    return r.acc;
}

} // namespace

TEST_CASE("extrema inside steps are located on the dense output", "[engine][kernels][accessories]") {
    // loose tolerance: steps of ~0.5, so step ends miss the peaks of sin t by up to ~0.03
    const auto s = bif::make_settings<double, 2>(1e-6, 1e-6);
    const auto refined = interval_features<Oscillator, bif::Dopri5>(0.3, 6.0, s, true);
    CHECK(refined.max[0] == Approx(1.0).margin(1e-6));
    CHECK(refined.t_max[0] == Approx(0.5 * pi).margin(1e-3));
    CHECK(refined.min[0] == Approx(-1.0).margin(1e-6));
    CHECK(refined.t_min[0] == Approx(1.5 * pi).margin(1e-3));
    const auto coarse = interval_features<Oscillator, bif::Dopri5>(0.3, 6.0, s, false);
    INFO("step-point max " << coarse.max[0] << " refined " << refined.max[0]);
    CHECK(coarse.max[0] <= refined.max[0]);
    CHECK(coarse.max[0] > 0.9);
    // Hermite dense output of a fixed-step method
    const auto rk4 =
        interval_features<Oscillator, bif::Rk4>(0.3, 6.0, bif::fixed_step_settings<double, 2>(0.25), true);
    CHECK(rk4.max[0] == Approx(1.0).margin(1e-4));
    CHECK(rk4.t_max[0] == Approx(0.5 * pi).margin(1e-2));
}

TEST_CASE("event counts and observables at the n-th crossing of an interval",
          "[engine][kernels][accessories]") {
    const auto s = bif::make_settings<double, 2>(1e-10, 1e-10);
    // crossings of x = sin t at pi, 2 pi, 3 pi in [1, 10]; v = cos t there: -1, +1, -1
    const auto second = interval_features<SineVelocity, bif::Dopri5>(1.0, 10.0, s, true, 2);
    CHECK(second.crossings[0] == 3);
    REQUIRE(second.captured[0]);
    CHECK(second.at_event[0] == Approx(1.0).margin(1e-8));
    const auto third = interval_features<SineVelocity, bif::Dopri5>(1.0, 10.0, s, true, 3);
    REQUIRE(third.captured[0]);
    CHECK(third.at_event[0] == Approx(-1.0).margin(1e-8));
    const auto never = interval_features<SineVelocity, bif::Dopri5>(1.0, 10.0, s, true, 4);
    CHECK_FALSE(never.captured[0]);
    // extrema of v = cos t over [1, 10]: max 1 at 2 pi, min -1 at pi and 3 pi (the first is kept)
    CHECK(second.max[0] == Approx(1.0).margin(1e-9));
    CHECK(second.t_max[0] == Approx(2 * pi).margin(1e-4));
    CHECK(second.min[0] == Approx(-1.0).margin(1e-9));
}
