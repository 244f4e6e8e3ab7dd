// The banded LU (kernels/bif/banded_lu.h) against the dense LU of linalg.h on the same random
// banded matrices, and against known solutions x of A x = b, with pivoting forced by small
// diagonals.
#include "bif/banded_lu.h"
#include "bif/linalg.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

namespace {

constexpr int kMax = 60;

struct BandedCase {
    int n, kl, ku;
};

// A random n x n matrix with kl sub- and ku superdiagonals, row-major; the diagonal is scaled by
// `diagonal` (small values make partial pivoting exchange rows).
std::vector<double> random_banded(const BandedCase& c, double diagonal, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> a(static_cast<std::size_t>(c.n * c.n), 0.0);
    for (int i = 0; i < c.n; ++i)
        for (int j = std::max(0, i - c.kl); j <= std::min(c.n - 1, i + c.ku); ++j)
            a[static_cast<std::size_t>(i * c.n + j)] = i == j ? diagonal * u(rng) : u(rng);
    return a;
}

std::vector<double> to_band(const std::vector<double>& dense, const BandedCase& c) {
    std::vector<double> band(static_cast<std::size_t>(bif::band_rows(c.kl, c.ku) * c.n), 0.0);
    for (int i = 0; i < c.n; ++i)
        for (int j = std::max(0, i - c.kl); j <= std::min(c.n - 1, i + c.ku); ++j)
            band[static_cast<std::size_t>(bif::band_index(i, j, c.kl, c.ku))] =
                dense[static_cast<std::size_t>(i * c.n + j)];
    return band;
}

} // namespace

TEST_CASE("banded LU solves random banded systems like the dense LU", "[linalg][banded]") {
    std::mt19937 rng(20261123);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const BandedCase cases[] = {{1, 0, 0},  {5, 1, 1},  {12, 2, 1}, {17, 0, 3}, {23, 3, 0},
                                {40, 2, 2}, {60, 1, 4}, {60, 5, 5}, {7, 6, 6}};
    for (const BandedCase& c : cases) {
        for (double diagonal : {4.0, 1e-3}) {
            // a triangular matrix with a tiny diagonal is ill-conditioned whatever the pivoting
            if (diagonal < 1.0 && (c.kl == 0 || c.ku == 0)) continue;
            INFO("n " << c.n << " kl " << c.kl << " ku " << c.ku << " diagonal " << diagonal);
            const std::vector<double> a = random_banded(c, diagonal, rng);
            std::vector<double> x(static_cast<std::size_t>(c.n)), b(x.size(), 0.0);
            for (double& v : x)
                v = u(rng);
            for (int i = 0; i < c.n; ++i)
                for (int j = 0; j < c.n; ++j)
                    b[static_cast<std::size_t>(i)] +=
                        a[static_cast<std::size_t>(i * c.n + j)] * x[static_cast<std::size_t>(j)];

            std::vector<double> band = to_band(a, c), xb = b;
            std::vector<int> piv_band(static_cast<std::size_t>(c.n));
            REQUIRE(bif::band_lu_factor(band.data(), c.n, c.kl, c.ku, piv_band.data()));
            bif::band_lu_solve(band.data(), c.n, c.kl, c.ku, piv_band.data(), xb.data());

            double dense[kMax * kMax];
            int piv_dense[kMax];
            std::copy(a.begin(), a.end(), dense);
            std::vector<double> xd = b;
            REQUIRE(bif::lu_factor<kMax>(dense, c.n, piv_dense));
            bif::lu_solve<kMax>(dense, c.n, piv_dense, xd.data());

            // the same elimination order with the same pivots: the same rows are exchanged
            for (int k = 0; k < c.n; ++k)
                CHECK(piv_band[static_cast<std::size_t>(k)] == piv_dense[k]);
            for (int i = 0; i < c.n; ++i) {
                const auto s = static_cast<std::size_t>(i);
                CHECK(xb[s] == Approx(xd[s]).epsilon(1e-9).margin(1e-9));
                CHECK(xb[s] == Approx(x[s]).epsilon(1e-7).margin(1e-7));
            }
        }
    }
}

TEST_CASE("banded LU solves the tridiagonal (-1, 2, -1) system with its known solution", "[linalg][banded]") {
    // A x = b with A = tridiag(-1, 2, -1) and x_i = (i + 1)(n - i): b = 2 everywhere (a discrete
    // second difference of a parabola)
    const int n = 50;
    std::vector<double> band(static_cast<std::size_t>(bif::band_rows(1, 1) * n), 0.0);
    for (int i = 0; i < n; ++i) {
        band[static_cast<std::size_t>(bif::band_index(i, i, 1, 1))] = 2.0;
        if (i > 0) band[static_cast<std::size_t>(bif::band_index(i, i - 1, 1, 1))] = -1.0;
        if (i + 1 < n) band[static_cast<std::size_t>(bif::band_index(i, i + 1, 1, 1))] = -1.0;
    }
    std::vector<double> b(static_cast<std::size_t>(n), 2.0);
    std::vector<int> piv(static_cast<std::size_t>(n));
    REQUIRE(bif::band_lu_factor(band.data(), n, 1, 1, piv.data()));
    bif::band_lu_solve(band.data(), n, 1, 1, piv.data(), b.data());
    for (int i = 0; i < n; ++i)
        CHECK(b[static_cast<std::size_t>(i)] == Approx(double((i + 1) * (n - i))).epsilon(1e-12));
}

TEST_CASE("banded LU reports a singular matrix", "[linalg][banded]") {
    const int n = 6;
    std::vector<double> band(static_cast<std::size_t>(bif::band_rows(1, 1) * n), 0.0);
    for (int i = 0; i < n; ++i)
        if (i != 3) band[static_cast<std::size_t>(bif::band_index(i, i, 1, 1))] = 1.0; // column 3 all zero
    std::vector<int> piv(static_cast<std::size_t>(n));
    CHECK_FALSE(bif::band_lu_factor(band.data(), n, 1, 1, piv.data()));
}
