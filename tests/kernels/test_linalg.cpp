// The small dense LU of the Rosenbrock methods against a product check A x = b.
#include "bif/linalg.h"

#include <catch2/catch.hpp>
#include <random>

namespace {
// Random n x n systems for n = 1 .. N in capacity-N arrays, checked by the residual A x - b.
template <int N>
void check_random_systems(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int trial = 0; trial < 50; ++trial) {
        const int n = 1 + trial % N;
        double a[N * N], lu[N * N], b[N], x[N];
        for (int i = 0; i < N * N; ++i)
            lu[i] = a[i] = u(rng);
        // a zero leading pivot forces a row exchange
        if (n > 1) a[0] = lu[0] = 0.0;
        for (int i = 0; i < n; ++i)
            x[i] = b[i] = u(rng);
        int piv[N];
        REQUIRE(bif::lu_factor<N>(lu, n, piv));
        bif::lu_solve<N>(lu, n, piv, x);
        for (int i = 0; i < n; ++i) {
            double r = 0;
            for (int j = 0; j < n; ++j)
                r += a[i * n + j] * x[j];
            CHECK(r == Approx(b[i]).margin(1e-10));
        }
    }
}
} // namespace

TEST_CASE("LU with partial pivoting solves small dense systems", "[engine][kernels][linalg]") {
    check_random_systems<6>(12345);
}

// capacities past kUnrollLimit take the rolled loops over the exact triangle
TEST_CASE("LU solves systems above the unroll limit", "[engine][kernels][linalg]") {
    check_random_systems<bif::kUnrollLimit + 4>(777);
}

TEST_CASE("LU reports a singular matrix", "[engine][kernels][linalg]") {
    double a[4] = {1, 2, 2, 4};
    int piv[2];
    CHECK_FALSE(bif::lu_factor<2>(a, 2, piv));
}
