// Equilibria found by Newton from quasi-random starts, against closed forms.
#include "engine/continuation/equilibrium_finder.h"
#include "model_text.h"

#include <cmath>

using namespace bif::cont;

namespace {

const double sigma = 10.0, beta = 8.0 / 3.0;

// Lorenz's characteristic polynomial at C+- (the same at both): an independent check of the
// eigenvalues computed from the symbolic Jacobian.
std::complex<double> lorenz_c_polynomial(std::complex<double> l, double r) {
    return l * l * l + (sigma + beta + 1.0) * l * l + beta * (sigma + r) * l + 2.0 * sigma * beta * (r - 1.0);
}

} // namespace

TEST_CASE("the three Lorenz equilibria at r = 28, their types and eigenvalues",
          "[continuation][equilibria]") {
    const bif::model::Model m = bundled_model("lorenz.ode");
    const ModelEquations eq(m, {});
    const double r = 28.0;
    const std::vector<double> p =
        eq.slots(parameter_values(m, {{"rho", r}, {"beta", beta}, {"sigma", sigma}}));
    EquilibriumSearch search;
    search.lower = {-30, -30, -10};
    search.upper = {30, 30, 50};
    search.starts = 400;
    search.threads = 2;
    const std::vector<Equilibrium> found = find_equilibria(eq, p, search);
    REQUIRE(found.size() == 3);
    // Sorted by state: C- (x < 0), the origin, C+.
    const double c = std::sqrt(beta * (r - 1.0));
    CHECK(found[0].state[0] == Approx(-c).epsilon(1e-12));
    CHECK(found[0].state[1] == Approx(-c).epsilon(1e-12));
    CHECK(found[0].state[2] == Approx(r - 1.0).epsilon(1e-12));
    CHECK(std::abs(found[1].state[0]) < 1e-12);
    CHECK(std::abs(found[1].state[2]) < 1e-12);
    CHECK(found[2].state[0] == Approx(c).epsilon(1e-12));

    // The origin: -beta and (-(sigma+1) +- sqrt((sigma+1)^2 + 4 sigma (r-1))) / 2, a saddle.
    const Equilibrium& o = found[1];
    const double d = std::sqrt((sigma + 1.0) * (sigma + 1.0) + 4.0 * sigma * (r - 1.0));
    CHECK(o.eigenvalues[0].real() == Approx((-(sigma + 1.0) + d) / 2.0).epsilon(1e-12));
    CHECK(o.eigenvalues[1].real() == Approx(-beta).epsilon(1e-12));
    CHECK(o.eigenvalues[2].real() == Approx((-(sigma + 1.0) - d) / 2.0).epsilon(1e-12));
    CHECK(o.eigenvalues.imag().cwiseAbs().maxCoeff() < 1e-12);
    CHECK(o.stability.type == EquilibriumType::Saddle);
    CHECK(o.stability.unstable == 1);
    CHECK(o.stability.stable == 2);

    // C+-: beyond the Hopf point (r = 24.74) a real stable eigenvalue and an unstable complex pair.
    for (const Equilibrium* e : {&found[0], &found[2]}) {
        CHECK(e->stability.type == EquilibriumType::SaddleFocus);
        CHECK(e->stability.unstable == 2);
        CHECK(e->stability.complex_pairs == 1);
        for (const std::complex<double>& l : e->eigenvalues)
            CHECK(std::abs(lorenz_c_polynomial(l, r)) < 1e-9 * (1.0 + std::pow(std::abs(l), 3)));
        CHECK(e->residual < 1e-10);
    }
}

TEST_CASE("equilibrium types of the van der Pol origin as mu varies", "[continuation][equilibria]") {
    const bif::model::Model m = bundled_model("vanderpol.ode");
    const ModelEquations eq(m, {});
    EquilibriumSearch search;
    search.lower = {-1, -1};
    search.upper = {1, 1};
    search.starts = 50;
    // Eigenvalues (mu +- sqrt(mu^2 - 4)) / 2.
    const std::vector<std::pair<double, EquilibriumType>> cases = {{-3.0, EquilibriumType::StableNode},
                                                                   {-1.0, EquilibriumType::StableFocus},
                                                                   {0.0, EquilibriumType::Centre},
                                                                   {1.0, EquilibriumType::UnstableFocus},
                                                                   {3.0, EquilibriumType::UnstableNode}};
    for (const auto& [mu, type] : cases) {
        const auto found = find_equilibria(eq, eq.slots({mu}), search);
        REQUIRE(found.size() == 1);
        INFO("mu = " << mu);
        CHECK(found[0].stability.type == type);
        CHECK(found[0].eigenvalues[0].real() ==
              Approx(mu >= 2 || mu <= -2 ? (mu + std::sqrt(mu * mu - 4)) / 2 : mu / 2).margin(1e-14));
    }
}

TEST_CASE("the cubic x' = r + x - x^3 has three equilibria between its folds, one outside",
          "[continuation][equilibria]") {
    const bif::model::Model m = parsed_model("x'=r+x-x^3\npar r=0\ndone\n");
    const ModelEquations eq(m, {});
    EquilibriumSearch search;
    search.lower = {-3};
    search.upper = {3};
    search.starts = 30;
    const auto three = find_equilibria(eq, eq.slots({0.0}), search);
    REQUIRE(three.size() == 3);
    CHECK(three[0].state[0] == Approx(-1.0));
    CHECK(three[0].stability.type == EquilibriumType::StableNode);
    CHECK(three[1].stability.type == EquilibriumType::UnstableNode);
    CHECK(three[2].state[0] == Approx(1.0));
    CHECK(find_equilibria(eq, eq.slots({1.0}), search).size() == 1);
}

TEST_CASE("bad input to the equilibrium search is refused with a message", "[continuation][equilibria]") {
    const bif::model::Model lorenz = bundled_model("lorenz.ode");
    const ModelEquations eq(lorenz, {});
    EquilibriumSearch search;
    search.lower = {-1, -1};
    search.upper = {1, 1};
    const std::vector<double> p = eq.slots(parameter_values(lorenz, {}));
    CHECK_THROWS_WITH(find_equilibria(eq, p, search), Catch::Contains("each of the 3 states"));
    search.lower = {-1, -1, 2};
    search.upper = {1, 1, 1};
    CHECK_THROWS_WITH(find_equilibria(eq, p, search), Catch::Contains("lower <= upper"));
    CHECK_THROWS_WITH(ModelEquations(bundled_model("logistic.ode"), {}), Catch::Contains("map"));
    CHECK_THROWS_WITH(ModelEquations(parsed_model("x'=-x+sin(t)\ndone\n"), {}), Catch::Contains("reads t"));
    CHECK_THROWS_WITH(ModelEquations(lorenz, {7}), Catch::Contains("no user parameter"));
}
