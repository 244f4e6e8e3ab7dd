// The Rosenbrock steppers on a model with a banded Jacobian (ProvidesBandedJacobian) take the
// banded LU; the same model without the band members takes the dense LU. Both must integrate to
// the same state, and to the steady state the chain relaxes to.
#include "bif/integrate.h"
#include "bif/steppers/rodas4.h"
#include "bif/steppers/rosenbrock23.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

namespace {

// x_j' = k (x_{j-1} - 2 x_j + x_{j+1}) - x_j^3 / 10, x_{-1} = 1, x_N = x_{N-1}: dense Jacobian only.
struct DenseChain {
    using real = double;
    [[maybe_unused]] static constexpr int num_states = 40, num_params = 1, num_param_slots = 1,
                                          num_events = 0, num_aux = 0, num_observables = 0;
    static constexpr int dimension() { return num_states; }
    static constexpr int event_count() { return 0; }
    static constexpr int param_slot_count() { return 1; }
    static constexpr int aux_count() { return 0; }
    static constexpr int observable_count() { return 0; }
    static void complete_parameters(real*) {}
    static real left(const real* y, int j) { return j > 0 ? y[j - 1] : 1.0; }
    static real right(const real* y, int j) { return j + 1 < num_states ? y[j + 1] : y[j]; }
    static void rhs(real, const real* y, const real* p, real* f) {
        for (int j = 0; j < num_states; ++j)
            f[j] = p[0] * (left(y, j) - 2.0 * y[j] + right(y, j)) - y[j] * y[j] * y[j] / 10.0;
    }
    // J(j, j) and its neighbours
    static real entry(const real* y, const real* p, int i, int j) {
        if (i == j) return -2.0 * p[0] + (i + 1 == num_states ? p[0] : 0.0) - 0.3 * y[i] * y[i];
        return (j == i - 1 || j == i + 1) ? p[0] : 0.0;
    }
    static void jacobian(real, const real* y, const real* p, real* J) {
        for (int i = 0; i < num_states; ++i)
            for (int j = 0; j < num_states; ++j)
                J[i * num_states + j] = entry(y, p, i, j);
    }
    static void time_derivative(real, const real*, const real*, real* d) {
        for (int i = 0; i < num_states; ++i)
            d[i] = 0.0;
    }
    static void events(real, const real*, const real*, real*) {}
    static int event_direction(int) { return 0; }
    static bool apply_reset(int, real, real*, real*) { return false; }
    static void aux(real, const real*, const real*, real*) {}
    static void observables(real, const real*, const real*, real*) {}
};

struct BandedChain : DenseChain {
    static constexpr int jacobian_lower_band = 1, jacobian_upper_band = 1;
    static void jacobian_band(real, const real* y, const real* p, real* B) {
        for (int i = 0; i < bif::band_rows(1, 1) * num_states; ++i)
            B[i] = 0.0;
        for (int i = 0; i < num_states; ++i)
            for (int j = i - 1; j <= i + 1; ++j)
                if (j >= 0 && j < num_states) B[bif::band_index(i, j, 1, 1)] = entry(y, p, i, j);
    }
};

static_assert(bif::ProvidesBandedJacobian<BandedChain>);
static_assert(!bif::ProvidesBandedJacobian<DenseChain>);

template <class Model, template <class> class Stepper>
std::vector<double> integrate_chain(double t_end) {
    double y[Model::num_states] = {};
    double p[1] = {500.0};
    auto s = bif::make_state<Model>(0.0, y, Model::num_states);
    s.h = 1e-6;
    Stepper<Model> st;
    bif::integrate(Model{}, st, s, p, t_end, bif::make_settings<double, Model::num_states>(1e-9, 1e-9));
    REQUIRE(s.status == bif::Status::Ok);
    return std::vector<double>(s.y, s.y + Model::num_states);
}

} // namespace

namespace {

template <template <class> class S>
void check_banded_against_dense() {
    const std::vector<double> dense = integrate_chain<DenseChain, S>(0.2);
    const std::vector<double> banded = integrate_chain<BandedChain, S>(0.2);
    for (std::size_t j = 0; j < dense.size(); ++j)
        CHECK(banded[j] == Approx(dense[j]).epsilon(1e-10).margin(1e-12));
    // far later both relax to the steady state, where the cubic sink balances the inflow
    const std::vector<double> late = integrate_chain<BandedChain, S>(200.0);
    std::vector<double> f(late.size());
    double p[1] = {500.0};
    BandedChain::rhs(0.0, late.data(), p, f.data());
    for (double v : f)
        CHECK(std::abs(v) < 1e-5);
}

} // namespace

TEST_CASE("Rodas4 with a banded Jacobian gives the dense path's solution", "[banded][rosenbrock]") {
    check_banded_against_dense<bif::Rodas4>();
}

TEST_CASE("Rosenbrock23 with a banded Jacobian gives the dense path's solution", "[banded][rosenbrock]") {
    check_banded_against_dense<bif::Rosenbrock23>();
}
