// Periodic orbits of flows: stroboscopic maps of forced flows (orbit_stroboscopic.h) and shooting
// with a phase condition for autonomous ones (orbit_shooting.h), against closed forms:
//   - a forced linear system x' = A x + (cos t, 0, 0) with A = S D S^-1, S far from orthogonal:
//     its one periodic orbit has the multipliers e^(2 pi d_i), chosen to span 12 orders of
//     magnitude;
//   - the van der Pol limit cycle's period against its expansions, for small mu
//     T = 2 pi (1 + mu^2/16 - 5 mu^4/3072 + O(mu^6)) (Andersen & Geer, SIAM J. Appl. Math. 42
//     (1982) 678) and for large mu T = (3 - 2 ln 2) mu + 3 a mu^(-1/3) - (2/3) ln(mu) / mu + O(1/mu),
//     a = 2.338107... the first zero of Ai(-x) (Dorodnitsyn 1947; Bender & Orszag, Sec. 11.2);
//   - its nontrivial multiplier against Liouville's formula exp(integral of div f over a period).
#include "engine/continuation/floquet_multipliers.h"
#include "engine/continuation/orbit_newton.h"
#include "engine/continuation/orbit_shooting.h"
#include "engine/continuation/orbit_stroboscopic.h"
#include "orbit_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

using namespace bif::cont;

namespace {

constexpr double pi = 3.14159265358979323846;

std::string number(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

// x' = A x + (cos t, 0, 0) with A = S diag(d) S^-1; the model text and the exact multipliers.
struct LinearForced {
    std::string text;
    std::vector<double> multipliers; // e^(2 pi d_i), decreasing
};

LinearForced linear_forced(const Eigen::Vector3d& d) {
    Eigen::Matrix3d s;
    s << 1, 2, 0, 0.5, 1, 3, 1, -1, 1; // det = 7.5: invertible, far from orthogonal
    const Eigen::Matrix3d a = s * d.asDiagonal() * s.inverse();
    const char* names[3] = {"x1", "x2", "x3"};
    LinearForced f;
    for (int i = 0; i < 3; ++i) {
        f.text += std::string(names[i]) + "'=";
        for (int j = 0; j < 3; ++j)
            f.text += (j ? "+(" : "(") + number(a(i, j)) + ")*" + names[j];
        f.text += i == 0 ? "+cos(w*t)\n" : "\n";
    }
    f.text += "par w=1\ndone\n";
    for (int i = 0; i < 3; ++i)
        f.multipliers.push_back(std::exp(2 * pi * d[i]));
    return f;
}

double relative(std::complex<double> got, double want) {
    return std::abs(got - want) / std::abs(want);
}

StroboscopicOrbit::PeriodOf two_pi_over(int slot) {
    return [slot](const std::vector<double>& p) { return 2 * pi / p[static_cast<std::size_t>(slot)]; };
}

} // namespace

TEST_CASE("a forced orbit's multipliers spanning 12 orders of magnitude, each to 1e-8",
          "[orbit][flow][floquet]") {
    // d1 = -0.05, d3 = d1 - 12 ln(10) / (2 pi): mu1 / mu3 = 1e12
    const Eigen::Vector3d d(-0.05, -1.3, -0.05 - 12 * std::log(10.0) / (2 * pi));
    const LinearForced f = linear_forced(d);
    const auto m = orbit_test::load_text(f.text);
    FlowSettings flow;
    flow.rtol = 1e-12;
    flow.atol = 1e-14;
    const int w = m.parameter("w");
    const StroboscopicOrbit orbit(*m.host, ModelParameters(*m.host, m.parameters, w), two_pi_over(w), 1, flow,
                                  12);
    OrbitPoint p;
    std::string why;
    OrbitNewtonSettings newton;
    const bool solved = solve_orbit(orbit, Eigen::Vector3d::Zero(), 1.0, newton, p, why);
    INFO(why);
    REQUIRE(solved);
    CHECK(p.iterations <= 3); // a linear map: one Newton step, one to confirm
    REQUIRE(p.stability.multipliers.size() == 3);
    for (int i = 0; i < 3; ++i) {
        INFO("multiplier " << i << ": " << p.stability.multipliers[static_cast<std::size_t>(i)].value.real()
                           << " want " << f.multipliers[static_cast<std::size_t>(i)]);
        CHECK(relative(p.stability.multipliers[static_cast<std::size_t>(i)].value,
                       f.multipliers[static_cast<std::size_t>(i)]) < 1e-8);
    }
    // The same segments multiplied out first: the smallest multiplier drowns in the rounding of
    // the product (about 1e-16 of the largest, relative 1e-4 of the smallest).
    OrbitEvaluation e;
    REQUIRE(orbit.evaluate(p.u, 1.0, false, e, why));
    const auto naive = explicit_product_multipliers(e.segments);
    const double naive_error = relative(naive.back(), f.multipliers.back());
    const double ours_error = relative(p.stability.multipliers.back().value, f.multipliers.back());
    INFO("smallest multiplier: explicit product " << naive_error << ", factored " << ours_error);
    CHECK(naive_error > 10 * ours_error);
}

TEST_CASE("van der Pol, small mu: the period against 2 pi (1 + mu^2/16 - 5 mu^4/3072)", "[orbit][flow]") {
    const auto m = orbit_test::load_bundled("vanderpol.ode");
    FlowSettings flow;
    flow.rtol = 1e-12;
    flow.atol = 1e-12;
    OrbitNewtonSettings newton;
    newton.tolerance = 1e-12;
    for (double mu : {0.1, 0.2, 0.4}) {
        const ShootingOrbit orbit(*m.host, ModelParameters(*m.host, m.parameters, m.parameter("mu")),
                                  Eigen::Vector2d(2, 0), flow, 4);
        OrbitPoint p;
        std::string why;
        const bool solved = solve_orbit(orbit, Eigen::Vector3d(2, 0, 2 * pi), mu, newton, p, why);
        INFO("mu " << mu << " " << why);
        REQUIRE(solved);
        const double t = p.u[2];
        const double two_terms = 2 * pi * (1 + mu * mu / 16);
        const double three_terms = two_terms - 2 * pi * 5 * std::pow(mu, 4) / 3072;
        // the next term is 2 pi (193/884736) mu^6 (Andersen & Geer): bound it by 1e-3 mu^6
        CHECK(std::abs(t - three_terms) < 2 * pi * 1e-3 * std::pow(mu, 6));
        // the mu^4 coefficient itself, to 10%
        CHECK((t - two_terms) / (2 * pi * std::pow(mu, 4)) == Approx(-5.0 / 3072).epsilon(0.1));
        // one trivial multiplier at 1; the other from Liouville: exp(integral of mu (1 - x^2))
        REQUIRE(p.stability.has_trivial);
        CHECK(std::abs(p.stability.trivial.value - 1.0) < 1e-8);
        REQUIRE(p.stability.multipliers.size() == 1);
        CHECK(p.stability.stable());
    }
}

TEST_CASE("van der Pol: the nontrivial multiplier is exp(integral of div f), Liouville", "[orbit][flow]") {
    const auto m = orbit_test::load_bundled("vanderpol.ode");
    // the same flow with the divergence integrated beside it
    const auto with_div = orbit_test::load_text("x'=y\ny'=mu*(1-x^2)*y-x\nz'=mu*(1-x^2)\npar mu=1\ndone\n");
    FlowSettings flow;
    flow.rtol = 1e-12;
    flow.atol = 1e-12;
    for (double mu : {1.0, 3.0}) {
        const ShootingOrbit orbit(*m.host, ModelParameters(*m.host, m.parameters, m.parameter("mu")),
                                  Eigen::Vector2d(2, 0), flow, 6);
        OrbitPoint p;
        std::string why;
        const bool solved =
            solve_orbit(orbit, Eigen::Vector3d(2, 0, 2 * pi + (mu - 0.5)), mu, OrbitNewtonSettings{}, p, why);
        INFO("mu " << mu << " " << why);
        REQUIRE(solved);
        FlowResult r;
        const std::vector<double> slots = ModelParameters(*with_div.host, with_div.parameters, 0).slots(mu);
        REQUIRE(flow_span(*with_div.host, slots, 0.0, Eigen::Vector3d(p.u[0], p.u[1], 0), p.u[2], 1, false,
                          flow, r, why));
        const double liouville = std::exp(r.end[2]);
        CHECK(p.stability.multipliers.at(0).value.real() == Approx(liouville).epsilon(1e-7));
    }
    // mu = 1: the period as published, 6.6632868593 (e.g. Strogatz, Nonlinear Dynamics and Chaos)
}

TEST_CASE("van der Pol, large mu: the period approaches the relaxation expansion", "[orbit][flow]") {
    const auto m = orbit_test::load_bundled("vanderpol.ode");
    FlowSettings flow;
    flow.rtol = 1e-10;
    flow.atol = 1e-10;
    const double airy = 2.338107410459767; // first zero of Ai(-x)
    double previous_error = INFINITY;
    for (double mu : {10.0, 20.0, 40.0}) {
        const double two_terms = (3 - 2 * std::log(2.0)) * mu + 3 * airy * std::pow(mu, -1.0 / 3);
        const double three_terms = two_terms - 2.0 / 3 * std::log(mu) / mu;
        const ShootingOrbit orbit(*m.host, ModelParameters(*m.host, m.parameters, m.parameter("mu")),
                                  Eigen::Vector2d(2, 0), flow, 8);
        OrbitPoint p;
        std::string why;
        const bool solved =
            solve_orbit(orbit, Eigen::Vector3d(2, 0, two_terms), mu, OrbitNewtonSettings{}, p, why);
        INFO("mu " << mu << " " << why);
        REQUIRE(solved);
        const double t = p.u[2];
        INFO("T = " << t << ", two terms " << two_terms << ", three terms " << three_terms);
        // the remainders shrink as mu grows, and the third term brings the expansion closer
        const double error = std::abs(t - two_terms);
        CHECK(error < previous_error);
        CHECK(std::abs(t - three_terms) < error);
        CHECK(error / t < 0.02);
        previous_error = error;
        if (mu == 10.0) CHECK(t == Approx(19.0784).epsilon(2e-5)); // the classical value at mu = 10
    }
}
