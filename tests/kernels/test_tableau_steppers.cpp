// The steppers built on Butcher tableaux (Rk4, Rkck45, Dopri5: bif/steppers/tableau.h) against the
// same methods written out here from their published coefficients, step by step from the same
// states: bit for bit against the stage formulas as printed (the same order of operations), to a
// few ulp against a plain loop over the full tableau (zeros included, another order of operations);
// and each tableau's order conditions, Butcher's rooted trees up to order 5 (Hairer, Norsett &
// Wanner I, II.2 Table 2.2), for the solution weights and for the embedded ones.
#include "bif/steppers/dopri5.h"
#include "bif/steppers/rk4.h"
#include "bif/steppers/rkck45.h"
#include "test_models.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {

// x'' + delta x' + x^3 = gamma cos(omega t), p = (delta, gamma, omega): non-autonomous, so the
// stage times c_i h count too.
template <class Real>
struct Duffing : testmodels::Defaults {
    using real = Real;
    static constexpr int num_states = 2;
    static constexpr int num_params = 3;
    static constexpr int num_param_slots = 3;
    static constexpr int dimension() { return 2; }
    static constexpr int param_slot_count() { return 3; }
    static void rhs(Real t, const Real* y, const Real* p, Real* f) {
        f[0] = y[1];
        f[1] = -p[0] * y[1] - y[0] * y[0] * y[0] + p[1] * std::cos(p[2] * t);
    }
    static void jacobian(Real, const Real*, const Real*, Real*) {}
    static void time_derivative(Real, const Real*, const Real*, Real*) {}
    static void complete_parameters(Real*) {}
    static void events(Real, const Real*, const Real*, Real*) {}
    static bool apply_reset(int, Real, Real*, Real*) { return false; }
    static void aux(Real, const Real*, const Real*, Real*) {}
    static void observables(Real, const Real*, const Real*, Real*) {}
};

template <class Real>
bool same_bits(const Real* a, const Real* b, int n) {
    return std::memcmp(a, b, sizeof(Real) * std::size_t(n)) == 0;
}

// What one step of a method gives: the new state, the error vector (times h) and, for DOPRI5,
// the last stage f(t + h, y_new) and the dense-output sum sum_i d_i k_i.
template <class Real, int N>
struct StepResult {
    Real y[N] = {}, err[N] = {}, k_last[N] = {}, dense[N] = {};
};

// The classical Runge-Kutta method as printed: y + h/6 (k1 + 2 k2 + 2 k3 + k4).
template <class M, class Real = typename M::real, int N = M::num_states>
StepResult<Real, N> classic_rk4(const M& m, Real t, const Real* y, const Real* p, Real h) {
    Real k1[N], k2[N], k3[N], k4[N], u[N];
    StepResult<Real, N> r;
    m.rhs(t, y, p, k1);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h / 2 * k1[i];
    m.rhs(t + h / 2, u, p, k2);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h / 2 * k2[i];
    m.rhs(t + h / 2, u, p, k3);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * k3[i];
    m.rhs(t + h, u, p, k4);
    for (int i = 0; i < N; ++i)
        r.y[i] = y[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    return r;
}

// Cash & Karp (1990), Table 5, stage by stage as printed; err = h sum (b5 - b4) k.
template <class M, class Real = typename M::real, int N = M::num_states>
StepResult<Real, N> cash_karp(const M& m, Real t, const Real* y, const Real* p, Real h) {
    const Real a21 = Real(1.0 / 5), a31 = Real(3.0 / 40), a32 = Real(9.0 / 40), a41 = Real(3.0 / 10),
               a42 = Real(-9.0 / 10), a43 = Real(6.0 / 5), a51 = Real(-11.0 / 54), a52 = Real(5.0 / 2),
               a53 = Real(-70.0 / 27), a54 = Real(35.0 / 27), a61 = Real(1631.0 / 55296),
               a62 = Real(175.0 / 512), a63 = Real(575.0 / 13824), a64 = Real(44275.0 / 110592),
               a65 = Real(253.0 / 4096);
    const double b5[6] = {37.0 / 378, 0, 250.0 / 621, 125.0 / 594, 0, 512.0 / 1771};
    const double b4[6] = {2825.0 / 27648, 0, 18575.0 / 48384, 13525.0 / 55296, 277.0 / 14336, 1.0 / 4};
    Real k1[N], k2[N], k3[N], k4[N], k5[N], k6[N], u[N];
    StepResult<Real, N> r;
    m.rhs(t, y, p, k1);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * a21 * k1[i];
    m.rhs(t + Real(1.0 / 5) * h, u, p, k2);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
    m.rhs(t + Real(3.0 / 10) * h, u, p, k3);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
    m.rhs(t + Real(3.0 / 5) * h, u, p, k4);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
    m.rhs(t + h, u, p, k5);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
    m.rhs(t + Real(7.0 / 8) * h, u, p, k6);
    for (int i = 0; i < N; ++i) {
        r.y[i] = y[i] +
                 h * (Real(b5[0]) * k1[i] + Real(b5[2]) * k3[i] + Real(b5[3]) * k4[i] + Real(b5[5]) * k6[i]);
        r.err[i] =
            h * (Real(b5[0] - b4[0]) * k1[i] + Real(b5[2] - b4[2]) * k3[i] + Real(b5[3] - b4[3]) * k4[i] +
                 Real(b5[4] - b4[4]) * k5[i] + Real(b5[5] - b4[5]) * k6[i]);
    }
    return r;
}

// Dormand & Prince (1980), Table 2, stage by stage as printed, with the error weights e = b - b*
// and the dense-output weights of Hairer's DOPRI5 code (CONTD5).
template <class M, class Real = typename M::real, int N = M::num_states>
StepResult<Real, N> dormand_prince(const M& m, Real t, const Real* y, const Real* p, Real h) {
    const Real a21 = Real(1.0 / 5), a31 = Real(3.0 / 40), a32 = Real(9.0 / 40), a41 = Real(44.0 / 45),
               a42 = Real(-56.0 / 15), a43 = Real(32.0 / 9), a51 = Real(19372.0 / 6561),
               a52 = Real(-25360.0 / 2187), a53 = Real(64448.0 / 6561), a54 = Real(-212.0 / 729),
               a61 = Real(9017.0 / 3168), a62 = Real(-355.0 / 33), a63 = Real(46732.0 / 5247),
               a64 = Real(49.0 / 176), a65 = Real(-5103.0 / 18656);
    const Real b1 = Real(35.0 / 384), b3 = Real(500.0 / 1113), b4 = Real(125.0 / 192),
               b5 = Real(-2187.0 / 6784), b6 = Real(11.0 / 84);
    const Real e1 = Real(71.0 / 57600), e3 = Real(-71.0 / 16695), e4 = Real(71.0 / 1920),
               e5 = Real(-17253.0 / 339200), e6 = Real(22.0 / 525), e7 = Real(-1.0 / 40);
    const Real d1 = Real(-12715105075.0 / 11282082432), d3 = Real(87487479700.0 / 32700410799),
               d4 = Real(-10690763975.0 / 1880347072), d5 = Real(701980252875.0 / 199316789632),
               d6 = Real(-1453857185.0 / 822651844), d7 = Real(69997945.0 / 29380423);
    Real k1[N], k2[N], k3[N], k4[N], k5[N], k6[N], u[N];
    StepResult<Real, N> r;
    m.rhs(t, y, p, k1);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * a21 * k1[i];
    m.rhs(t + Real(1.0 / 5) * h, u, p, k2);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
    m.rhs(t + Real(3.0 / 10) * h, u, p, k3);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
    m.rhs(t + Real(4.0 / 5) * h, u, p, k4);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
    m.rhs(t + Real(8.0 / 9) * h, u, p, k5);
    for (int i = 0; i < N; ++i)
        u[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
    m.rhs(t + h, u, p, k6);
    for (int i = 0; i < N; ++i)
        r.y[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
    m.rhs(t + h, r.y, p, r.k_last);
    for (int i = 0; i < N; ++i) {
        const Real k7 = r.k_last[i];
        r.err[i] = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7);
        r.dense[i] = d1 * k1[i] + d3 * k3[i] + d4 * k4[i] + d5 * k5[i] + d6 * k6[i] + d7 * k7;
    }
    return r;
}

// Any explicit tableau as a plain loop over all its coefficients, zeros included.
template <class M, int S>
std::vector<double> tableau_loop(const M& m, double t, const double* y, const double* p, double h,
                                 const double (&c)[S], const double (&a)[S][S], const double (&b)[S]) {
    constexpr int N = M::num_states;
    double k[S][N], u[N];
    for (int s = 0; s < S; ++s) {
        for (int i = 0; i < N; ++i) {
            double sum = 0;
            for (int j = 0; j < s; ++j)
                sum += a[s][j] * k[j][i];
            u[i] = y[i] + h * sum;
        }
        m.rhs(t + c[s] * h, u, p, k[s]);
    }
    std::vector<double> out(N);
    for (int i = 0; i < N; ++i) {
        double sum = 0;
        for (int s = 0; s < S; ++s)
            sum += b[s] * k[s][i];
        out[i] = y[i] + h * sum;
    }
    return out;
}

// Steps the stepper `steps` times with h from y0 and compares every step with the reference
// method started from the same state, bit for bit.
template <template <class> class Stepper, class M, class Reference>
void compare_bits(const M& m, const typename M::real* y0, const typename M::real* p, typename M::real h,
                  int steps, Reference reference) {
    using Real = typename M::real;
    constexpr int N = M::num_states;
    const auto s = bif::make_settings<Real, N>(Real(1e-6), Real(1e-6));
    Stepper<M> st;
    Real y[N], y_new[N];
    std::memcpy(y, y0, sizeof y);
    Real t = 0;
    REQUIRE(st.start(m, t, y, p));
    for (int step = 0; step < steps; ++step) {
        INFO("step " << step);
        Real h_step = h;
        const Real err = st.attempt(m, t, y, p, h_step, y_new, s);
        const StepResult<Real, N> ref = reference(m, t, y, p, h);
        REQUIRE(same_bits(y_new, ref.y, N));
        if constexpr (Stepper<M>::error_order > 0) {
            const Real ref_err = bif::scaled_error(y, ref.y, ref.err, N, s);
            REQUIRE(same_bits(&err, &ref_err, 1));
        }
        if constexpr (std::is_same_v<Stepper<M>, bif::Dopri5<M>>) {
            REQUIRE(same_bits(st.f1, ref.k_last, N));
            REQUIRE(same_bits(st.dense, ref.dense, N));
        }
        st.accept(m, t, y, p, h, y_new);
        st.advance(N);
        std::memcpy(y, y_new, sizeof y);
        t += h;
    }
}

// The plain loop against the stepper, one step from each of `steps` states along a trajectory.
template <template <class> class Stepper, class M, int S>
double largest_loop_difference(const M& m, const double* y0, const double* p, double h, int steps,
                               const double (&c)[S], const double (&a)[S][S], const double (&b)[S]) {
    constexpr int N = M::num_states;
    const auto s = bif::make_settings<double, N>(1e-6, 1e-6);
    Stepper<M> st;
    double y[N], y_new[N], t = 0, largest = 0;
    std::memcpy(y, y0, sizeof y);
    st.start(m, t, y, p);
    for (int step = 0; step < steps; ++step) {
        double h_step = h;
        st.attempt(m, t, y, p, h_step, y_new, s);
        const std::vector<double> loop = tableau_loop(m, t, y, p, h, c, a, b);
        for (int i = 0; i < N; ++i)
            largest = std::fmax(largest, std::fabs(y_new[i] - loop[i]) / std::fmax(std::fabs(loop[i]), 1.0));
        st.accept(m, t, y, p, h, y_new);
        st.advance(N);
        std::memcpy(y, y_new, sizeof y);
        t += h;
    }
    return largest;
}

// A tableau as plain numbers, for the order conditions.
struct Weights {
    std::vector<double> c, b;
    std::vector<std::vector<double>> a;
};

template <class T>
Weights solution_weights() {
    Weights w;
    for (int i = 0; i < T::stages; ++i) {
        w.c.push_back(T::c[i]);
        w.b.push_back(T::b[i] / T::b_divisor);
        w.a.emplace_back(T::a[i], T::a[i] + T::stages);
    }
    return w;
}

// b* = b - e; an FSAL method's extra stage is f(t + h, y_new): a row a = b, c = 1.
template <class T>
Weights embedded_weights() {
    Weights w = solution_weights<T>();
    for (int i = 0; i < T::stages; ++i)
        w.b[std::size_t(i)] -= T::e[i];
    if (T::fsal) {
        for (auto& row : w.a)
            row.push_back(0);
        std::vector<double> last(T::b, T::b + T::stages);
        last.push_back(0);
        w.a.push_back(last);
        w.c.push_back(1);
        w.b.push_back(-T::e[T::stages]);
    }
    return w;
}

using Vec = std::vector<double>;

Vec times(const Vec& u, const Vec& v) {
    Vec r(u.size());
    for (std::size_t i = 0; i < u.size(); ++i)
        r[i] = u[i] * v[i];
    return r;
}

Vec a_times(const std::vector<Vec>& a, const Vec& v) {
    Vec r(v.size(), 0.0);
    for (std::size_t i = 0; i < v.size(); ++i)
        for (std::size_t j = 0; j < v.size(); ++j)
            r[i] += a[i][j] * v[j];
    return r;
}

double dot(const Vec& u, const Vec& v) {
    double s = 0;
    for (std::size_t i = 0; i < u.size(); ++i)
        s += u[i] * v[i];
    return s;
}

// The largest defect |b . Phi(tree) - 1/gamma(tree)| over the rooted trees of exactly `order`.
double order_defect(const Weights& w, int order) {
    const Vec& c = w.c;
    const Vec one(c.size(), 1.0);
    const Vec c2 = times(c, c), c3 = times(c2, c), ac = a_times(w.a, c), ac2 = a_times(w.a, c2);
    std::vector<std::pair<double, double>> trees;
    if (order == 1) trees = {std::pair{dot(w.b, one), 1.0}};
    if (order == 2) trees = {std::pair{dot(w.b, c), 1.0 / 2}};
    if (order == 3) trees = {{dot(w.b, c2), 1.0 / 3}, {dot(w.b, ac), 1.0 / 6}};
    if (order == 4)
        trees = {{dot(w.b, c3), 1.0 / 4},
                 {dot(w.b, times(c, ac)), 1.0 / 8},
                 {dot(w.b, ac2), 1.0 / 12},
                 {dot(w.b, a_times(w.a, ac)), 1.0 / 24}};
    if (order == 5)
        trees = {{dot(w.b, times(c3, c)), 1.0 / 5},
                 {dot(w.b, times(c2, ac)), 1.0 / 10},
                 {dot(w.b, times(c, ac2)), 1.0 / 15},
                 {dot(w.b, times(c, a_times(w.a, ac))), 1.0 / 30},
                 {dot(w.b, times(ac, ac)), 1.0 / 20},
                 {dot(w.b, a_times(w.a, c3)), 1.0 / 20},
                 {dot(w.b, a_times(w.a, times(c, ac))), 1.0 / 40},
                 {dot(w.b, a_times(w.a, ac2)), 1.0 / 60},
                 {dot(w.b, a_times(w.a, a_times(w.a, ac))), 1.0 / 120}};
    double defect = 0;
    for (const auto& [value, expected] : trees)
        defect = std::fmax(defect, std::fabs(value - expected));
    return defect;
}

// Row sums c_i = sum_j a_ij, and the order conditions: all of them up to `order`, not all of
// order + 1 (where trees of that order are listed here).
void check_order(const Weights& w, int order) {
    for (std::size_t i = 0; i < w.c.size(); ++i) {
        double row = 0;
        for (double x : w.a[i])
            row += x;
        CHECK(row == Approx(w.c[i]).margin(1e-15));
    }
    for (int q = 1; q <= order; ++q) {
        INFO("order " << q);
        CHECK(order_defect(w, q) < 1e-14);
    }
    if (order < 5) CHECK(order_defect(w, order + 1) > 1e-6);
}

template <class M>
using Dopri5 = bif::Dopri5<M>;

const double lorenz_y0[3] = {1, 1, 1};
const double lorenz_p[3] = {10, 28, 8.0 / 3};
const double duffing_y0[2] = {1, 0};
const double duffing_p[3] = {0.1, 0.35, 1.4};
const float duffing_y0f[2] = {1, 0};
const float duffing_pf[3] = {0.1f, 0.35f, 1.4f};

} // namespace

TEST_CASE("the tableau steppers step bit for bit as their methods are printed",
          "[engine][kernels][tableau]") {
    const testmodels::Lorenz lorenz{};
    const Duffing<double> duffing{};
    const Duffing<float> duffing_f{};
    SECTION("classic RK4") {
        auto ref = [](const auto& m, auto t, auto y, auto p, auto h) { return classic_rk4(m, t, y, p, h); };
        compare_bits<bif::Rk4>(lorenz, lorenz_y0, lorenz_p, 0.005, 2000, ref);
        compare_bits<bif::Rk4>(duffing, duffing_y0, duffing_p, 0.01, 2000, ref);
        compare_bits<bif::Rk4>(duffing_f, duffing_y0f, duffing_pf, 0.01f, 2000, ref);
    }
    SECTION("Cash-Karp 4(5)") {
        auto ref = [](const auto& m, auto t, auto y, auto p, auto h) { return cash_karp(m, t, y, p, h); };
        compare_bits<bif::Rkck45>(lorenz, lorenz_y0, lorenz_p, 0.005, 2000, ref);
        compare_bits<bif::Rkck45>(duffing, duffing_y0, duffing_p, 0.01, 2000, ref);
        compare_bits<bif::Rkck45>(duffing_f, duffing_y0f, duffing_pf, 0.01f, 2000, ref);
    }
    SECTION("Dormand-Prince 5(4) with its dense-output sum") {
        auto ref = [](const auto& m, auto t, auto y, auto p, auto h) {
            return dormand_prince(m, t, y, p, h);
        };
        compare_bits<Dopri5>(lorenz, lorenz_y0, lorenz_p, 0.005, 2000, ref);
        compare_bits<Dopri5>(duffing, duffing_y0, duffing_p, 0.01, 2000, ref);
        compare_bits<Dopri5>(duffing_f, duffing_y0f, duffing_pf, 0.01f, 2000, ref);
    }
}

TEST_CASE("the tableau steppers agree with a plain loop over the full tableau",
          "[engine][kernels][tableau]") {
    const testmodels::Lorenz lorenz{};
    // the published coefficients, every entry written out
    const double rk4_c[4] = {0, 0.5, 0.5, 1};
    const double rk4_a[4][4] = {{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1, 0}};
    const double rk4_b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
    const double ck_c[6] = {0, 0.2, 0.3, 0.6, 1, 0.875};
    const double ck_a[6][6] = {
        {0, 0, 0, 0, 0, 0},
        {1.0 / 5, 0, 0, 0, 0, 0},
        {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
        {3.0 / 10, -9.0 / 10, 6.0 / 5, 0, 0, 0},
        {-11.0 / 54, 5.0 / 2, -70.0 / 27, 35.0 / 27, 0, 0},
        {1631.0 / 55296, 175.0 / 512, 575.0 / 13824, 44275.0 / 110592, 253.0 / 4096, 0}};
    const double ck_b[6] = {37.0 / 378, 0, 250.0 / 621, 125.0 / 594, 0, 512.0 / 1771};
    const double dp_c[6] = {0, 0.2, 0.3, 0.8, 8.0 / 9, 1};
    const double dp_a[6][6] = {{0, 0, 0, 0, 0, 0},
                               {1.0 / 5, 0, 0, 0, 0, 0},
                               {3.0 / 40, 9.0 / 40, 0, 0, 0, 0},
                               {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0},
                               {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0},
                               {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0}};
    const double dp_b[6] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84};
    // a few ulp of the state: the sums are rounded in another order
    const double ulps = 8 * 2.220446049250313e-16;
    CHECK(largest_loop_difference<bif::Rk4>(lorenz, lorenz_y0, lorenz_p, 0.005, 500, rk4_c, rk4_a, rk4_b) <
          ulps);
    CHECK(largest_loop_difference<bif::Rkck45>(lorenz, lorenz_y0, lorenz_p, 0.005, 500, ck_c, ck_a, ck_b) <
          ulps);
    CHECK(largest_loop_difference<Dopri5>(lorenz, lorenz_y0, lorenz_p, 0.005, 500, dp_c, dp_a, dp_b) < ulps);
}

TEST_CASE("the tableaux satisfy the order conditions of their orders", "[engine][kernels][tableau]") {
    SECTION("classic RK4: order 4") {
        check_order(solution_weights<bif::ClassicRk4Tableau>(), bif::Rk4<testmodels::Lorenz>::order);
        CHECK_FALSE(bif::has_error_estimate<bif::ClassicRk4Tableau>());
    }
    SECTION("Cash-Karp: order 5, embedded order 4") {
        check_order(solution_weights<bif::CashKarpTableau>(), bif::Rkck45<testmodels::Lorenz>::order);
        check_order(embedded_weights<bif::CashKarpTableau>(), bif::Rkck45<testmodels::Lorenz>::error_order);
    }
    SECTION("Dormand-Prince: order 5, embedded order 4 with the FSAL stage") {
        check_order(solution_weights<bif::DormandPrinceTableau>(), bif::Dopri5<testmodels::Lorenz>::order);
        check_order(embedded_weights<bif::DormandPrinceTableau>(),
                    bif::Dopri5<testmodels::Lorenz>::error_order);
    }
}
