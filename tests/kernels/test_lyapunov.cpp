// Lyapunov exponents from the tangent wrapper and Gram-Schmidt renormalisation.
// Lorenz (10, 28, 8/3): 0.9056, 0, -14.5723 (J. C. Sprott, Chaos and Time-Series Analysis, Oxford
// 2003, Appendix A; Wolf et al., Physica D 16 (1985) 285: 0.90, 0, -14.57); their sum is the trace
// of the Jacobian, -(sigma + 1 + beta) = -13.6667. Harmonic oscillator: 0, 0.
#include "test_models.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

namespace {

using namespace testmodels;

template <int K, template <class> class Stepper, class Model>
std::array<double, K> exponents(const Model& base, const double* y0, double* p, double transient, double span,
                                double interval,
                                const bif::SolverSettings<double, Model::num_states*(1 + K)>& s) {
    using Tangent = bif::TangentModel<Model, K>;
    const Tangent tm{base};
    constexpr int N = Model::num_states;
    // transient on the tangent system too (the vectors are reset afterwards)
    double y[Tangent::num_states] = {};
    for (int i = 0; i < N; ++i)
        y[i] = y0[i];
    bif::lyapunov_start(tm, y);
    auto st = bif::make_state<Tangent>(0.0, y, tm.dimension());
    Stepper<Tangent> stepper;
    bif::LyapunovSums<K, double> sums;
    bif::LyapunovSums<K, double> discard;
    double t = 0;
    while (t < transient + span - 1e-9) {
        t += interval;
        REQUIRE(bif::integrate(tm, stepper, st, p, t, s) == bif::Status::Ok);
        bif::lyapunov_renormalise(tm, st.y, interval, t <= transient + 1e-9 ? discard : sums);
        bif::state_changed(st, stepper);
    }
    std::array<double, K> out{};
    for (int k = 0; k < K; ++k)
        out[k] = sums.sum[k] / sums.elapsed;
    return out;
}

} // namespace

TEST_CASE("Lorenz spectrum: 0.906, 0, -14.572 with sum -(sigma + 1 + beta)", "[engine][kernels][lyapunov]") {
    const Lorenz m{};
    double p[3] = {10.0, 28.0, 8.0 / 3.0};
    const double y0[3] = {1.0, 1.0, 1.0};
    const auto s = bif::make_settings<double, 12>(1e-9, 1e-9);
    const auto l = exponents<3, bif::Dopri5>(m, y0, p, 20.0, 1000.0, 0.5, s);
    INFO("exponents " << l[0] << " " << l[1] << " " << l[2]);
    CHECK(l[0] == Approx(0.9056).margin(0.04));
    CHECK(l[1] == Approx(0.0).margin(0.01));
    CHECK(l[2] == Approx(-14.5723).margin(0.05));
    CHECK(l[0] + l[1] + l[2] == Approx(-(10.0 + 1.0 + 8.0 / 3.0)).epsilon(1e-6));
}

TEST_CASE("Lorenz largest exponent with one tangent vector and RK4", "[engine][kernels][lyapunov]") {
    const Lorenz m{};
    double p[3] = {10.0, 28.0, 8.0 / 3.0};
    const double y0[3] = {1.0, 1.0, 1.0};
    const auto l =
        exponents<1, bif::Rk4>(m, y0, p, 20.0, 1000.0, 1.0, bif::fixed_step_settings<double, 6>(0.005));
    INFO("largest " << l[0]);
    CHECK(l[0] == Approx(0.9056).margin(0.04));
}

TEST_CASE("harmonic oscillator exponents are zero", "[engine][kernels][lyapunov]") {
    const Oscillator m{};
    double p[1] = {0};
    const double y0[2] = {1.0, 0.0};
    const auto l =
        exponents<2, bif::Dopri5>(m, y0, p, 0.0, 200.0, 1.0, bif::make_settings<double, 6>(1e-10, 1e-10));
    INFO("exponents " << l[0] << " " << l[1]);
    CHECK(std::abs(l[0]) < 1e-3);
    CHECK(std::abs(l[1]) < 1e-3);
    // area preservation: the sum is zero to integration accuracy
    CHECK(std::abs(l[0] + l[1]) < 1e-8);
}

TEST_CASE("Gram-Schmidt returns an orthonormal set and the stretch factors", "[engine][kernels][lyapunov]") {
    // v0 = (3, 4, 0), v1 = (1, 1, 1): r00 = 5, v1 - (v1.e0) e0 = (1,1,1) - 1.4 (0.6, 0.8, 0)
    double v[6] = {3, 4, 0, 1, 1, 1};
    double r[2];
    bif::gram_schmidt<2>(v, 3, r);
    CHECK(r[0] == Approx(5.0));
    CHECK(r[1] == Approx(std::sqrt(0.16 * 0.16 + 0.12 * 0.12 + 1.0)));
    CHECK(v[0] * v[3] + v[1] * v[4] + v[2] * v[5] == Approx(0.0).margin(1e-15));
    CHECK(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] == Approx(1.0));
}
