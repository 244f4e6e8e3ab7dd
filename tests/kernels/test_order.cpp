// Order of accuracy: in fixed-step mode, halving h must divide the global error by 2^p
// (Boost.Odeint's numeric tests do the same). Adaptive mode: the global error follows the tolerance.
#include "test_models.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

using namespace testmodels;

template <template <class> class Stepper, class Model>
double global_error(int steps, double t1) {
    const Model m{};
    double y0[2] = {1.0, 0.0};
    auto s = bif::fixed_step_settings<double, Model::num_states>(t1 / steps);
    const auto st = kt::run<Stepper>(m, y0, 0.0, t1, s);
    REQUIRE(st.status == bif::Status::Ok);
    REQUIRE(st.t == t1);
    REQUIRE(st.accepted == static_cast<unsigned long long>(steps));
    if constexpr (Model::num_states == 1)
        return std::abs(st.y[0] - Model::exact(t1));
    else
        return std::hypot(st.y[0] - std::cos(t1), st.y[1] + std::sin(t1));
}

template <template <class> class Stepper, class Model>
double observed_order(int steps, double t1) {
    return std::log2(global_error<Stepper, Model>(steps, t1) / global_error<Stepper, Model>(2 * steps, t1));
}

template <class M>
using Rkc = bif::Rkc<M>;

} // namespace

TEST_CASE("every method converges with its order in fixed-step mode", "[engine][kernels][order]") {
    const double t1 = 2.0;
    SECTION("RK4, order 4") {
        CHECK(observed_order<bif::Rk4, ExpSin>(20, t1) == Approx(4).margin(0.25));
        CHECK(observed_order<bif::Rk4, Oscillator>(20, t1) == Approx(4).margin(0.25));
    }
    SECTION("Cash-Karp, order 5") {
        CHECK(observed_order<bif::Rkck45, ExpSin>(10, t1) == Approx(5).margin(0.35));
        CHECK(observed_order<bif::Rkck45, Oscillator>(10, t1) == Approx(5).margin(0.35));
    }
    SECTION("Dormand-Prince, order 5") {
        CHECK(observed_order<bif::Dopri5, ExpSin>(10, t1) == Approx(5).margin(0.35));
        CHECK(observed_order<bif::Dopri5, Oscillator>(10, t1) == Approx(5).margin(0.35));
    }
    SECTION("RKC, order 2") {
        CHECK(observed_order<Rkc, ExpSin>(40, t1) == Approx(2).margin(0.2));
        CHECK(observed_order<Rkc, Oscillator>(40, t1) == Approx(2).margin(0.2));
    }
    SECTION("Rosenbrock23, order 2") {
        CHECK(observed_order<bif::Rosenbrock23, ExpSin>(40, t1) == Approx(2).margin(0.2));
        CHECK(observed_order<bif::Rosenbrock23, Oscillator>(40, t1) == Approx(2).margin(0.2));
    }
    SECTION("Rodas4, order 4") {
        CHECK(observed_order<bif::Rodas4, ExpSin>(40, t1) == Approx(4).margin(0.3));
        CHECK(observed_order<bif::Rodas4, Oscillator>(20, t1) == Approx(4).margin(0.3));
    }
}

namespace {

template <template <class> class Stepper>
void check_tolerance_sweep(double slack) {
    // local error ~ tol, so the global error falls like tol^(p/(p+1)) (about 100^(2/3) = 21
    // per two decades for second order, 100^(4/5) = 40 for fourth)
    constexpr int p = Stepper<ExpSin>::order;
    const double expected_fall = std::pow(100.0, double(p) / (p + 1));
    const ExpSin m{};
    const double y0[1] = {1.0};
    double previous = 0.0;
    for (double tol : {1e-4, 1e-6, 1e-8}) {
        auto s = bif::make_settings<double, 1>(tol, tol);
        const auto st = kt::run<Stepper>(m, y0, 0.0, 5.0, s);
        REQUIRE(st.status == bif::Status::Ok);
        const double err = std::abs(st.y[0] - ExpSin::exact(5.0));
        INFO("order " << p << " tol " << tol << " error " << err << " steps " << st.accepted);
        CHECK(err < slack * tol);
        if (previous > 0) CHECK(previous / err > expected_fall / 4);
        previous = err;
    }
}

} // namespace

TEST_CASE("adaptive methods keep the global error near the tolerance", "[engine][kernels][order]") {
    check_tolerance_sweep<bif::Rkck45>(10);
    check_tolerance_sweep<bif::Dopri5>(10);
    check_tolerance_sweep<bif::Rodas4>(10);
    // second order: the global error outgrows the local tolerance as tol falls
    check_tolerance_sweep<Rkc>(300);
    check_tolerance_sweep<bif::Rosenbrock23>(300);
}
