// Cross-check against Boost.Odeint as an independent implementation: the Brusselator (A = 1,
// B = 3, a smooth limit cycle) to t = 20 with our adaptive steppers against Odeint's
// Runge-Kutta-Fehlberg 7(8) at a much tighter tolerance, and our DOPRI5 dense output against
// Odeint's DOPRI5 dense-output stepper at times between steps.
#include "test_models.h"
#include "test_support.h"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>

// Odeint's steppers copy uninitialised scratch arrays in their copy constructors; GCC flags that
// where they are instantiated, in this file.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/numeric/odeint.hpp>

namespace {

using namespace testmodels;
namespace odeint = boost::numeric::odeint;

struct Brusselator : Defaults {
    static constexpr int num_states = 2;
    static constexpr int dimension() { return 2; }
    static void rhs(real, const real* y, const real*, real* f) {
        f[0] = 1 + y[0] * y[0] * y[1] - 4 * y[0];
        f[1] = 3 * y[0] - y[0] * y[0] * y[1];
    }
    static void jacobian(real, const real* y, const real*, real* J) {
        J[0] = 2 * y[0] * y[1] - 4;
        J[1] = y[0] * y[0];
        J[2] = 3 - 2 * y[0] * y[1];
        J[3] = -y[0] * y[0];
    }
    static void time_derivative(real, const real*, const real*, real* ft) { ft[0] = ft[1] = 0; }
};

using State = std::array<double, 2>;

void brusselator(const State& y, State& f, double t) {
    Brusselator::rhs(t, y.data(), nullptr, f.data());
}

State odeint_reference(double t1) {
    State y{1.5, 3.0};
    odeint::integrate_adaptive(odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_fehlberg78<State>()),
                               brusselator, y, 0.0, t1, 1e-3);
    return y;
}

template <template <class> class Stepper>
double difference_to_odeint(double tol) {
    const double y0[2] = {1.5, 3.0};
    const auto st = kt::run<Stepper>(Brusselator{}, y0, 0.0, 20.0, bif::make_settings<double, 2>(tol, tol));
    REQUIRE(st.status == bif::Status::Ok);
    const State ref = odeint_reference(20.0);
    return std::max(std::abs(st.y[0] - ref[0]), std::abs(st.y[1] - ref[1]));
}

// Samples our dense output at fixed times as the steps pass them.
struct Sampler {
    std::vector<double> times;
    std::vector<State> values;
    template <class View>
    void on_step(const View& v) {
        for (double t : times)
            if (t > v.t0 && t <= v.t1) {
                State y;
                v.state_at(t, y.data());
                values.push_back(y);
            }
    }
    template <class Hit>
    void on_event(const Hit&) {}
};

template <class M>
using Rkc = bif::Rkc<M>;

} // namespace

TEST_CASE("adaptive steppers agree with Boost.Odeint's RKF78 on the Brusselator",
          "[engine][kernels][odeint]") {
    CHECK(difference_to_odeint<bif::Dopri5>(1e-11) < 1e-8);
    CHECK(difference_to_odeint<bif::Rkck45>(1e-11) < 1e-8);
    CHECK(difference_to_odeint<bif::Rodas4>(1e-10) < 1e-7);
    CHECK(difference_to_odeint<bif::Rosenbrock23>(1e-8) < 1e-5);
    CHECK(difference_to_odeint<Rkc>(1e-8) < 1e-5);
}

TEST_CASE("DOPRI5 dense output agrees with Boost.Odeint's dense-output DOPRI5", "[engine][kernels][odeint]") {
    Sampler ours;
    for (int k = 1; k <= 40; ++k)
        ours.times.push_back(0.37 * k);
    const double y0[2] = {1.5, 3.0};
    kt::run<bif::Dopri5>(Brusselator{}, y0, 0.0, 15.0, bif::make_settings<double, 2>(1e-10, 1e-10), nullptr,
                         &ours);
    REQUIRE(ours.values.size() == ours.times.size());
    // Odeint's integrate_times starts at the first time and reports it too
    std::vector<double> times{0.0};
    times.insert(times.end(), ours.times.begin(), ours.times.end());
    State y{1.5, 3.0};
    std::vector<State> theirs;
    odeint::integrate_times(odeint::make_dense_output(1e-10, 1e-10, odeint::runge_kutta_dopri5<State>()),
                            brusselator, y, times.begin(), times.end(), 1e-3,
                            [&](const State& s, double) { theirs.push_back(s); });
    REQUIRE(theirs.size() == times.size());
    for (std::size_t i = 0; i < ours.values.size(); ++i) {
        INFO("t = " << ours.times[i]);
        CHECK(ours.values[i][0] == Approx(theirs[i + 1][0]).margin(1e-7));
        CHECK(ours.values[i][1] == Approx(theirs[i + 1][1]).margin(1e-7));
    }
}

#pragma GCC diagnostic pop
