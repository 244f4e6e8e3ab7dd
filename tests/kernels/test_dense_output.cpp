// Dense output inside accepted steps against the exact solution: DOPRI5's fourth-order continuous
// extension (error O(h^5) per step) and the cubic Hermite interpolant of the other methods (O(h^4)).
#include "test_models.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

using namespace testmodels;

// The largest deviation of the dense output from x = cos t, v = -sin t at interior points.
struct DenseProbe {
    double worst_interior = 0;
    double worst_end = 0;
    template <class View>
    void on_step(const View& v) {
        for (double th : {0.1, 0.3, 0.5, 0.7, 0.9}) {
            const double t = v.t0 + th * (v.t1 - v.t0);
            double y[2];
            v.state_at(t, y);
            worst_interior = std::max(worst_interior, std::hypot(y[0] - std::cos(t), y[1] + std::sin(t)));
        }
        worst_end = std::max(worst_end, std::hypot(v.y1[0] - std::cos(v.t1), v.y1[1] + std::sin(v.t1)));
    }
    template <class Hit>
    void on_event(const Hit&) {}
};

template <template <class> class Stepper>
DenseProbe probe(const bif::SolverSettings<double, 2>& s, double t1) {
    const double y0[2] = {1.0, 0.0};
    DenseProbe p;
    // the section event is irrelevant here; Oscillator's direction 2 only adds event scans
    kt::run<Stepper>(Oscillator{}, y0, 0.0, t1, s, nullptr, &p);
    return p;
}

template <template <class> class Stepper>
double interpolation_order(double h) {
    const double coarse = probe<Stepper>(bif::fixed_step_settings<double, 2>(h), 2.0).worst_interior;
    const double fine = probe<Stepper>(bif::fixed_step_settings<double, 2>(h / 2), 2.0).worst_interior;
    return std::log2(coarse / fine);
}

} // namespace

TEST_CASE("DOPRI5's dense output is fourth order and as accurate as its steps", "[engine][kernels][dense]") {
    // per-step interpolation error O(h^5) on top of the O(h^5) global error
    CHECK(interpolation_order<bif::Dopri5>(0.2) > 4.5);
    const auto p = probe<bif::Dopri5>(bif::make_settings<double, 2>(1e-9, 1e-9), 20.0);
    INFO("interior " << p.worst_interior << " step ends " << p.worst_end);
    CHECK(p.worst_interior < 3 * p.worst_end + 1e-12);
}

TEST_CASE("Hermite dense output of the other methods is third-order accurate", "[engine][kernels][dense]") {
    CHECK(interpolation_order<bif::Rk4>(0.2) == Approx(4).margin(0.3));
    CHECK(interpolation_order<bif::Rkck45>(0.2) == Approx(4).margin(0.3));
    CHECK(interpolation_order<bif::Rodas4>(0.1) == Approx(4).margin(0.3));
    const auto p = probe<bif::Rkck45>(bif::make_settings<double, 2>(1e-9, 1e-9), 20.0);
    INFO("interior " << p.worst_interior << " step ends " << p.worst_end);
    // the cubic interpolant is less accurate than the fifth-order steps, yet bounded by h^4/384 |y''''|
    CHECK(p.worst_interior < 1e-6);
}
