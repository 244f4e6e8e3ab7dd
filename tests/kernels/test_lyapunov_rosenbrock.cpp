// Rosenbrock methods on the tangent system need its exact Jacobian, d(J v)/dy included, and its
// time derivative (dJ/dt) v (bif/lyapunov.h); with J on the diagonal only they are W-methods.
// Checked on a parametrically forced van der Pol oscillator whose second derivatives are written out
// by hand below, against a tight RKCK45 reference: fixed-step Rodas4 runs of y and v converge at
// order 4 (about 1 without the terms), Rosenbrock23 runs at order 2, and the Lyapunov exponent by
// Rodas4 agrees with RKCK45.
#include "bif/integrators.h"
#include "bif/lyapunov.h"
#include "test_models.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

// x' = y,  y' = mu (1 - x^2) y - x + a x cos(t)   (mu = 1, a = 0.5)
struct ForcedVanDerPol : testmodels::Defaults {
    static constexpr int num_states = 2;
    static constexpr int dimension() { return 2; }
    static constexpr double mu = 1.0, a = 0.5;
    static void rhs(real t, const real* y, const real*, real* f) {
        f[0] = y[1];
        f[1] = mu * (1 - y[0] * y[0]) * y[1] - y[0] + a * y[0] * std::cos(t);
    }
    static void jacobian(real t, const real* y, const real*, real* J) {
        J[0] = 0;
        J[1] = 1;
        J[2] = -2 * mu * y[0] * y[1] - 1 + a * std::cos(t);
        J[3] = mu * (1 - y[0] * y[0]);
    }
    static void time_derivative(real t, const real* y, const real*, real* ft) {
        ft[0] = 0;
        ft[1] = -a * y[0] * std::sin(t);
    }
};

// The same model with the second-derivative terms: yv = [x, y, v0, v1], u = J v.
struct ForcedVanDerPolExact : ForcedVanDerPol {
    static void hessian_vector(real, const real* yv, const real*, real* Hv) {
        Hv[0] = Hv[1] = 0;
        Hv[2] = -2 * mu * (yv[1] * yv[2] + yv[0] * yv[3]); // d u1 / dx
        Hv[3] = -2 * mu * yv[0] * yv[2];                   // d u1 / dy
    }
    static void jacobian_time_vector(real t, const real* yv, const real*, real* Jtv) {
        Jtv[0] = 0;
        Jtv[1] = -a * std::sin(t) * yv[2];
    }
};

static_assert(bif::ProvidesTangentDerivatives<ForcedVanDerPolExact>);
static_assert(!bif::ProvidesTangentDerivatives<ForcedVanDerPol>);

constexpr double kEnd = 2.0;

template <class Model>
using Tangent = bif::TangentModel<Model, 1>;

// y and v at kEnd from y = (1.5, 0), v = e_0.
template <template <class> class Stepper, class Model>
std::array<double, 4> tangent_at_end(const bif::SolverSettings<double, 4>& set) {
    const Tangent<Model> tm{};
    double y[4] = {1.5, 0.0};
    bif::lyapunov_start(tm, y);
    auto s = bif::make_state<Tangent<Model>>(0.0, y, 4);
    Stepper<Tangent<Model>> st;
    REQUIRE(bif::integrate(tm, st, s, nullptr, kEnd, set) == bif::Status::Ok);
    return {s.y[0], s.y[1], s.y[2], s.y[3]};
}

double max_error(const std::array<double, 4>& a, const std::array<double, 4>& b) {
    double e = 0;
    for (int i = 0; i < 4; ++i)
        e = std::fmax(e, std::abs(a[i] - b[i]));
    return e;
}

// log2 of the error ratio between steps h and h/2.
template <template <class> class Stepper, class Model>
double observed_order(double h) {
    const auto reference = tangent_at_end<bif::Rkck45, Model>(bif::make_settings<double, 4>(1e-14, 1e-14));
    const double coarse =
        max_error(tangent_at_end<Stepper, Model>(bif::fixed_step_settings<double, 4>(h)), reference);
    const double fine =
        max_error(tangent_at_end<Stepper, Model>(bif::fixed_step_settings<double, 4>(h / 2)), reference);
    INFO("errors " << coarse << " " << fine);
    return std::log2(coarse / fine);
}

template <template <class> class Stepper, class Model>
double largest_exponent(const bif::SolverSettings<double, 4>& set) {
    const Tangent<Model> tm{};
    double y[4] = {1.5, 0.0};
    bif::lyapunov_start(tm, y);
    auto s = bif::make_state<Tangent<Model>>(0.0, y, 4);
    Stepper<Tangent<Model>> st;
    bif::LyapunovSums<1, double> sums;
    for (int i = 1; i <= 200; ++i) {
        REQUIRE(bif::integrate(tm, st, s, nullptr, 0.5 * i, set) == bif::Status::Ok);
        bif::lyapunov_renormalise(tm, s.y, 0.5, sums);
        bif::state_changed(s, st);
    }
    return sums.sum[0] / sums.elapsed;
}

} // namespace

TEST_CASE("Rodas4 on the tangent system converges at order 4 with the exact Jacobian",
          "[engine][kernels][lyapunov][rosenbrock]") {
    const double exact = observed_order<bif::Rodas4, ForcedVanDerPolExact>(0.02);
    const double w_method = observed_order<bif::Rodas4, ForcedVanDerPol>(0.02);
    INFO("observed orders: exact Jacobian " << exact << ", block diagonal " << w_method);
    CHECK(exact == Approx(4.0).margin(0.3));
    CHECK(w_method < 3.5); // without the terms: the order drops
}

// Rosenbrock23 (Shampine & Reichelt's ode23s formula) is a W-method of order 2: it keeps its order
// with any Jacobian, so only the order with the exact one is checked here.
TEST_CASE("Rosenbrock23 on the tangent system converges at order 2 with the exact Jacobian",
          "[engine][kernels][lyapunov][rosenbrock]") {
    const double exact = observed_order<bif::Rosenbrock23, ForcedVanDerPolExact>(0.01);
    INFO("observed order " << exact);
    CHECK(exact == Approx(2.0).margin(0.2));
}

TEST_CASE("Rodas4 Lyapunov exponent agrees with RKCK45", "[engine][kernels][lyapunov][rosenbrock]") {
    const double reference =
        largest_exponent<bif::Rkck45, ForcedVanDerPolExact>(bif::make_settings<double, 4>(1e-12, 1e-12));
    const double rodas =
        largest_exponent<bif::Rodas4, ForcedVanDerPolExact>(bif::fixed_step_settings<double, 4>(0.005));
    INFO("RKCK45 " << reference << ", Rodas4 " << rodas);
    CHECK(rodas == Approx(reference).margin(1e-7));
}
