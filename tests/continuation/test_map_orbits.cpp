// Periodic orbits of maps (engine/continuation/map_orbit.h) against closed forms and Feigenbaum's
// constant:
//   - the logistic map x -> r x (1 - x): fixed point 1 - 1/r with multiplier 2 - r, so the first
//     period doubling is at r = 3; the period-2 orbit's multiplier is -r^2 + 2r + 4, which is -1 at
//     r = 1 + sqrt(6) (May, Nature 261 (1976) 459);
//   - the doubling points r_j of the cascade, each located as a PD point of the period-2^(j-1)
//     orbit, converge geometrically: (r_j - r_{j-1}) / (r_{j+1} - r_j) -> 4.6692016...
//     (Feigenbaum, J. Stat. Phys. 19 (1978) 25);
//   - the Henon map's fixed points in closed form with their Jacobian's eigenvalues.
#include "engine/continuation/map_orbit.h"
#include "engine/continuation/orbit_newton.h"
#include "orbit_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif::cont;

namespace {

constexpr double feigenbaum_delta = 4.669201609102990;

// The logistic map's attractor point after `iterations` from x = 0.3.
double settle_logistic(double r, int iterations) {
    double x = 0.3;
    for (int i = 0; i < iterations; ++i)
        x = r * x * (1 - x);
    return x;
}

} // namespace

TEST_CASE("logistic map: period doublings at r = 3 and r = 1 + sqrt(6)", "[orbit][map]") {
    const auto m = orbit_test::load_bundled("logistic.ode");
    const int r = m.parameter("r");
    OrbitNewtonSettings newton;
    newton.tolerance = 1e-13;

    // the fixed point and its multiplier at r = 2.8
    const MapOrbit period1(*m.host, ModelParameters(*m.host, m.parameters, r), 1);
    OrbitPoint p;
    std::string why;
    REQUIRE(solve_orbit(period1, Eigen::VectorXd::Constant(1, 0.5), 2.8, newton, p, why));
    CHECK(p.u[0] == Approx(1 - 1 / 2.8).epsilon(1e-13));
    CHECK(p.stability.multipliers.at(0).value.real() == Approx(2 - 2.8).epsilon(1e-12));
    CHECK(p.stability.stable());

    OrbitPoint pd1;
    const bool located =
        locate_orbit_bifurcation(period1, OrbitBifurcation::PeriodDoubling, p.u, 2.8, newton, pd1, why);
    INFO(why);
    REQUIRE(located);
    CHECK(pd1.lambda == Approx(3.0).epsilon(1e-11));
    CHECK(pd1.u[0] == Approx(2.0 / 3.0).epsilon(1e-11));

    const MapOrbit period2(*m.host, ModelParameters(*m.host, m.parameters, r), 2);
    OrbitPoint pd2;
    REQUIRE(locate_orbit_bifurcation(period2, OrbitBifurcation::PeriodDoubling,
                                     Eigen::VectorXd::Constant(1, settle_logistic(3.4, 2000)), 3.4, newton,
                                     pd2, why));
    CHECK(pd2.lambda == Approx(1 + std::sqrt(6.0)).epsilon(1e-11));
    CHECK(pd2.stability.multipliers.at(0).value.real() == Approx(-1).margin(1e-9));
    // the period-2 orbit is unstable beyond, stable before
    OrbitPoint beyond;
    REQUIRE(solve_orbit(period2, pd2.u, pd2.lambda + 0.01, newton, beyond, why));
    CHECK(beyond.stability.unstable == 1);
}

TEST_CASE("logistic map: the doubling points converge at Feigenbaum's rate", "[orbit][map]") {
    const auto m = orbit_test::load_bundled("logistic.ode");
    const int r = m.parameter("r");
    OrbitNewtonSettings newton;
    newton.tolerance = 1e-14;
    newton.max_iterations = 50;

    // r_1 = 3 and r_2 = 1 + sqrt(6) as the previous test locates them; then each next point from a
    // guess extrapolated with the ratio so far, the period-2^j orbit found at a parameter below it
    // by iterating onto the stable orbit and refining by Newton.
    std::vector<double> doubling = {3.0, 1 + std::sqrt(6.0)};
    double ratio = 4.7;
    std::string why;
    for (int j = 2; j <= 7; ++j) {
        const int period = 1 << j; // born at r_j, doubles at r_{j+1}
        const double last = doubling.back(), gap = last - doubling[doubling.size() - 2];
        const double below = last + 0.6 * gap / ratio;
        const MapOrbit orbit(*m.host, ModelParameters(*m.host, m.parameters, r), period);
        OrbitPoint start, pd;
        INFO("period " << period);
        REQUIRE(solve_orbit(orbit, Eigen::VectorXd::Constant(1, settle_logistic(below, 20000)), below, newton,
                            start, why));
        REQUIRE(start.stability.stable());
        REQUIRE(locate_orbit_bifurcation(orbit, OrbitBifurcation::PeriodDoubling, start.u, below, newton, pd,
                                         why));
        REQUIRE(pd.lambda > last);
        doubling.push_back(pd.lambda);
        ratio = gap / (pd.lambda - last);
    }
    // r_3 and r_4 as published (Feigenbaum 1978, Table; Briggs, Math. Comp. 57 (1991) 435)
    CHECK(doubling[2] == Approx(3.5440903595519).epsilon(1e-11));
    CHECK(doubling[3] == Approx(3.5644072661).epsilon(1e-10));
    std::vector<double> ratios;
    for (std::size_t j = 1; j + 1 < doubling.size(); ++j)
        ratios.push_back((doubling[j] - doubling[j - 1]) / (doubling[j + 1] - doubling[j]));
    // The ratios approach delta with an error shrinking by about delta per step.
    CHECK(std::abs(ratios[3] - feigenbaum_delta) < 0.02 * feigenbaum_delta);
    CHECK(std::abs(ratios[4] - feigenbaum_delta) < 0.002 * feigenbaum_delta);
    CHECK(std::abs(ratios[5] - feigenbaum_delta) < std::abs(ratios[2] - feigenbaum_delta));
}

TEST_CASE("Henon map: fixed points and multipliers in closed form", "[orbit][map]") {
    // x = 1 - a x^2 + b x  =>  a x^2 + (1 - b) x - 1 = 0; Jacobian [[-2 a x, 1], [b, 0]]
    const auto m = orbit_test::load_bundled("henon.ode");
    const double a = 1.4, b = 0.3;
    const MapOrbit fixed(*m.host, ModelParameters(*m.host, m.parameters, m.parameter("a")), 1);
    OrbitNewtonSettings newton;
    OrbitPoint p;
    std::string why;
    REQUIRE(solve_orbit(fixed, Eigen::Vector2d(0.6, 0.2), a, newton, p, why));
    const double x = (-(1 - b) + std::sqrt((1 - b) * (1 - b) + 4 * a)) / (2 * a);
    CHECK(p.u[0] == Approx(x).epsilon(1e-12));
    CHECK(p.u[1] == Approx(b * x).epsilon(1e-12));
    // eigenvalues of [[-2 a x, 1], [b, 0]]: mu^2 + 2 a x mu - b = 0
    const double mu1 = -a * x - std::sqrt(a * a * x * x + b), mu2 = -a * x + std::sqrt(a * a * x * x + b);
    REQUIRE(p.stability.multipliers.size() == 2);
    CHECK(p.stability.multipliers[0].value.real() == Approx(mu1).epsilon(1e-12));
    CHECK(p.stability.multipliers[1].value.real() == Approx(mu2).epsilon(1e-12));
    CHECK(p.stability.unstable == 1); // a saddle
}
