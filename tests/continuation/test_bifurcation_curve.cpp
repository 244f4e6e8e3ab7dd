// Curves of folds and Hopf points in the plane of two parameters, against closed forms.
#include "engine/continuation/bifurcation_curve.h"
#include "engine/continuation/equilibrium_stability.h"
#include "model_text.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace bif::cont;

namespace {

ContinuationSettings curve_settings(int direction) {
    ContinuationSettings s;
    s.initial_step = 0.01;
    s.max_step = 0.1;
    s.max_points = 3000;
    s.direction = direction;
    return s;
}

} // namespace

TEST_CASE("the bialternate product's eigenvalues are the pair sums", "[continuation][curve]") {
    std::mt19937 rng(20261127);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    for (int n : {2, 3, 4, 5}) {
        Eigen::MatrixXd a(n, n);
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j)
                a(i, j) = u(rng);
        const Eigen::VectorXcd mu = sorted_eigenvalues(a);
        std::vector<std::complex<double>> sums;
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                sums.push_back(mu[i] + mu[j]);
        const Eigen::VectorXcd got = sorted_eigenvalues(bialternate_product(a));
        REQUIRE(got.size() == Eigen::Index(sums.size()));
        // Match each pair sum to its nearest eigenvalue of the product, each used once.
        std::vector<bool> used(sums.size(), false);
        for (const std::complex<double>& s : sums) {
            std::size_t best = 0;
            double gap = INFINITY;
            for (std::size_t k = 0; k < sums.size(); ++k)
                if (!used[k] && std::abs(got[Eigen::Index(k)] - s) < gap) {
                    gap = std::abs(got[Eigen::Index(k)] - s);
                    best = k;
                }
            used[best] = true;
            INFO("n = " << n);
            CHECK(gap < 1e-10);
        }
    }
}

TEST_CASE("the fold curve of x' = r + s x - x^3 through its cusp: 27 r^2 = 4 s^3", "[continuation][curve]") {
    const bif::model::Model m = parsed_model("x'=r+s*x-x^3\npar r=0, s=0\ndone\n");
    const ModelEquations eq(m, {m.parameter_index("r"), m.parameter_index("s")});
    // A fold at x = 0.5: s = 3 x^2 = 0.75, r = -2 x^3 = -0.25; decreasing s runs to the cusp.
    const BifurcationCurve c = continue_bifurcation_curve(eq, CurveKind::Fold, {-0.25, 0.75}, {0.5}, {-1, 1},
                                                          {-1, 2}, curve_settings(-1));
    REQUIRE(c.points.size() > 20);
    bool passed_cusp = false;
    for (const CurvePoint& p : c.points) {
        const double x = p.state[0];
        CHECK(p.beta == Approx(3 * x * x).margin(1e-9));
        CHECK(p.alpha == Approx(-2 * x * x * x).margin(1e-9));
        passed_cusp = passed_cusp || x < -0.1;
    }
    CHECK(passed_cusp);
    REQUIRE(c.points.back().label == "EP");
    CHECK(c.points.back().alpha == Approx(1.0));
    CHECK(c.stop == StopReason::LeftBox);
}

TEST_CASE("the Brusselator's Hopf curve b = 1 + a^2", "[continuation][curve]") {
    const bif::model::Model m = parsed_model("par a=1.5, b=3.25\nx'=a-(b+1)*x+x^2*y\ny'=b*x-x^2*y\ndone\n");
    const ModelEquations eq(m, {m.parameter_index("b"), m.parameter_index("a")});
    for (int direction : {1, -1}) {
        const BifurcationCurve c =
            continue_bifurcation_curve(eq, CurveKind::Hopf, {1.5, 3.25}, {1.5, 3.25 / 1.5}, {0, 12}, {0.5, 3},
                                       curve_settings(direction));
        REQUIRE(c.points.size() > 10);
        for (const CurvePoint& p : c.points) {
            CHECK(p.alpha == Approx(1 + p.beta * p.beta).margin(1e-9));
            CHECK(p.state[0] == Approx(p.beta).margin(1e-9));
        }
        CHECK(c.points.back().beta == Approx(direction > 0 ? 3.0 : 0.5));
    }
}

TEST_CASE("the Lorenz Hopf curve rho = sigma (sigma + beta + 3) / (sigma - beta - 1)",
          "[continuation][curve]") {
    const bif::model::Model m = bundled_model("lorenz.ode");
    const double beta = 8.0 / 3.0, sigma = 10.0, rho = sigma * (sigma + beta + 3) / (sigma - beta - 1);
    const ModelEquations eq(m, {m.parameter_index("rho"), m.parameter_index("sigma")});
    const double c0 = std::sqrt(beta * (rho - 1));
    const BifurcationCurve c =
        continue_bifurcation_curve(eq, CurveKind::Hopf, parameter_values(m, {{"rho", rho}, {"beta", beta}}),
                                   {c0, c0, rho - 1}, {0, 200}, {6, 30}, curve_settings(1));
    REQUIRE(c.points.size() > 10);
    for (const CurvePoint& p : c.points) {
        const double s = p.beta;
        CHECK(p.alpha == Approx(s * (s + beta + 3) / (s - beta - 1)).epsilon(1e-9));
    }
    CHECK(c.points.back().beta == Approx(30.0));
}
