// Floquet multipliers from segment Jacobians (engine/continuation/floquet_multipliers.h) on products
// whose eigenvalues are known exactly by construction: A_i = Q_i U_i Q_{i-1}^T with Q_m = Q_0
// orthogonal and U_i upper triangular (a 2x2 rotation-scaling block for a complex pair), so that
// A_m ... A_1 = Q_0 (U_m ... U_1) Q_0^T and the multipliers are the products of the U_i's diagonal
// (blocks). The multipliers span 15 orders of magnitude; the explicit product loses the small ones.
#include "engine/continuation/floquet_multipliers.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace bif::cont;
using Eigen::MatrixXd;

namespace {

MatrixXd random_orthogonal(int n, std::mt19937& rng) {
    std::normal_distribution<double> normal;
    MatrixXd a(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            a(i, j) = normal(rng);
    Eigen::HouseholderQR<MatrixXd> qr(a);
    return qr.householderQ() * MatrixXd::Identity(n, n);
}

struct KnownProduct {
    std::vector<MatrixXd> segments;
    std::vector<std::complex<double>> multipliers; // by decreasing modulus
};

// Multipliers 1e3, 0.9 e^{+-i 2.1}, -1e-12 over m segments, each segment taking the m-th root.
KnownProduct spread_product(int m, std::mt19937& rng) {
    const int n = 4;
    const double big = 1e3, rho = 0.9, theta = 2.1, small = 1e-12;
    std::uniform_real_distribution<double> coupling(-1.0, 1.0);
    std::vector<MatrixXd> q;
    for (int i = 0; i < m; ++i)
        q.push_back(random_orthogonal(n, rng));
    q.push_back(q.front());
    KnownProduct k;
    for (int i = 1; i <= m; ++i) {
        MatrixXd u = MatrixXd::Zero(n, n);
        u(0, 0) = std::pow(big, 1.0 / m);
        const double r = std::pow(rho, 1.0 / m), a = theta / m;
        u(1, 1) = r * std::cos(a);
        u(1, 2) = -r * std::sin(a);
        u(2, 1) = r * std::sin(a);
        u(2, 2) = r * std::cos(a);
        u(3, 3) = (i == 1 ? -1.0 : 1.0) * std::pow(small, 1.0 / m);
        for (int row = 0; row < n; ++row)
            for (int col = row + 1; col < n; ++col)
                if (!(row == 1 && col == 2)) u(row, col) = coupling(rng);
        k.segments.push_back(q[static_cast<std::size_t>(i)] * u *
                             q[static_cast<std::size_t>(i - 1)].transpose());
    }
    k.multipliers = {big, std::polar(rho, theta), std::polar(rho, -theta), -small};
    return k;
}

double relative_error(std::complex<double> got, std::complex<double> want) {
    return std::abs(got - want) / std::abs(want);
}

// The computed multiplier nearest each wanted one, its relative error (the worst over all).
double worst_error(const std::vector<std::complex<double>>& got,
                   const std::vector<std::complex<double>>& want) {
    REQUIRE(got.size() == want.size());
    double worst = 0;
    for (std::complex<double> w : want) {
        double best = INFINITY;
        for (std::complex<double> g : got)
            best = std::min(best, relative_error(g, w));
        worst = std::max(worst, best);
    }
    return worst;
}

std::vector<std::complex<double>> values(const FloquetResult& r) {
    std::vector<std::complex<double>> out;
    for (const FloquetMultiplier& m : r.multipliers)
        out.push_back(m.value);
    return out;
}

} // namespace

TEST_CASE("multipliers spanning 15 orders of magnitude are exact to rounding on every one", "[floquet]") {
    // Each segment is rounded as it is formed, by eps times its largest stretch: a segment that
    // spans the whole 15 orders (m = 1) holds the smallest multiplier only to 1e-3. From m = 3 on
    // a segment spans at most 1e5.
    std::mt19937 rng(20261127);
    for (int m : {3, 10, 40}) {
        const KnownProduct k = spread_product(m, rng);
        const FloquetResult r = floquet_multipliers(k.segments);
        INFO("segments " << m << ", sweeps " << r.sweeps);
        REQUIRE(r.multipliers.size() == 4);
        CHECK(worst_error(values(r), k.multipliers) < 1e-10);
        // ordered by modulus; log moduli agree with the values
        CHECK(r.multipliers[0].log_modulus == Approx(std::log(1e3)).epsilon(1e-12));
        CHECK(r.multipliers[3].log_modulus == Approx(std::log(1e-12)).epsilon(1e-12));
        CHECK(r.multipliers[3].value.real() < 0);
    }
}

TEST_CASE("the explicit product loses the smallest multiplier that the factored form keeps", "[floquet]") {
    std::mt19937 rng(7);
    const KnownProduct k = spread_product(10, rng);
    const std::vector<std::complex<double>> naive = explicit_product_multipliers(k.segments);
    const FloquetResult r = floquet_multipliers(k.segments);
    const double naive_small = relative_error(naive.back(), k.multipliers.back());
    const double ours_small = relative_error(r.multipliers.back().value, k.multipliers.back());
    INFO("explicit product: " << naive_small << ", factored: " << ours_small);
    // rounding in the product is eps * 1e3 absolute: about 1e-1 of the multiplier 1e-12
    CHECK(naive_small > 1e-6);
    CHECK(ours_small < 1e-12);
}

TEST_CASE("multipliers stay put whatever the number of segments, equal moduli included", "[floquet]") {
    // A rotation by 0.7 scaled by 1.2 (a complex pair of equal moduli) beside a real 1.2: three
    // multipliers of one modulus, which orthogonal iteration cannot split.
    const double c = std::cos(0.7), s = std::sin(0.7);
    MatrixXd whole(3, 3);
    whole << 1.2 * c, -1.2 * s, 0.3, 1.2 * s, 1.2 * c, -0.4, 0, 0, 1.2;
    const std::vector<std::complex<double>> want = {std::polar(1.2, 0.7), std::polar(1.2, -0.7), 1.2};
    for (int m : {1, 2, 5}) {
        // m equal segments whose product is `whole`: its m-th root through the eigen decomposition
        Eigen::ComplexEigenSolver<MatrixXd> eig(whole);
        Eigen::MatrixXcd root = eig.eigenvectors() *
                                eig.eigenvalues().array().pow(1.0 / m).matrix().asDiagonal() *
                                eig.eigenvectors().inverse();
        std::vector<MatrixXd> segments(static_cast<std::size_t>(m), root.real());
        CHECK(worst_error(values(floquet_multipliers(segments)), want) < 1e-12);
    }
}

TEST_CASE("bad segment lists are refused", "[floquet]") {
    CHECK_THROWS_AS(floquet_multipliers({}), std::invalid_argument);
    CHECK_THROWS_AS(floquet_multipliers({MatrixXd::Identity(2, 2), MatrixXd::Identity(3, 3)}),
                    std::invalid_argument);
}
