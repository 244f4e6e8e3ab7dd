// Equilibrium branches and their special points, against closed forms.
#include "engine/continuation/equilibrium_branch.h"
#include "model_text.h"

#include <cmath>

using namespace bif::cont;

namespace {

std::vector<const EquilibriumBranchPoint*> labelled(const EquilibriumBranch& b, const std::string& label) {
    std::vector<const EquilibriumBranchPoint*> out;
    for (const auto& p : b.points)
        if (p.label == label) out.push_back(&p);
    return out;
}

ContinuationSettings along(double from, double to, int direction) {
    ContinuationSettings s;
    s.initial_step = 0.01;
    s.max_step = 0.2;
    s.max_points = 2000;
    s.direction = direction;
    s.box = {{-1, from, to}}; // the component is set below: the parameter's, n
    return s;
}

const char* brusselator = R"(# Brusselator, with a derived parameter in its right-hand side
par a=1.5, b=2
!bp1=b+1
x'=a-bp1*x+x^2*y
y'=b*x-x^2*y
done
)";

} // namespace

TEST_CASE("Lorenz: the pitchfork of the origin at r = 1 and the Hopf point of C+", "[continuation][branch]") {
    const bif::model::Model m = bundled_model("lorenz.ode");
    const double sigma = 10.0, beta = 8.0 / 3.0;
    const ModelEquations eq(m, {m.parameter_index("rho")});
    SECTION("the origin's branch point at r = 1, stable before it and a saddle after") {
        ContinuationSettings s = along(0.0, 2.0, 1);
        s.box[0].component = 3;
        const auto values = parameter_values(m, {{"rho", 0.5}, {"beta", beta}});
        const EquilibriumBranch b = continue_equilibrium(eq, values, 0, {0.0, 0.0, 0.0}, s);
        const auto bp = labelled(b, "BP");
        REQUIRE(bp.size() == 1);
        CHECK(bp[0]->parameter == Approx(1.0).margin(1e-9));
        CHECK(labelled(b, "H").empty());
        CHECK(labelled(b, "LP").empty());
        for (const auto& p : b.points) {
            if (p.parameter < 0.999) CHECK(p.stability.unstable == 0);
            if (p.parameter > 1.001) CHECK(p.stability.unstable == 1);
        }
        CHECK(b.points.back().label == "EP");
        CHECK(b.points.back().parameter == Approx(2.0));
    }
    SECTION("C+ loses stability at r = sigma (sigma + beta + 3) / (sigma - beta - 1), subcritically") {
        ContinuationSettings s = along(5.0, 30.0, 1);
        s.box[0].component = 3;
        const double r = 10.0, c = std::sqrt(beta * (r - 1.0));
        const auto values = parameter_values(m, {{"rho", r}, {"beta", beta}});
        // A start off the equilibrium: the corrector finds it at r = 10.
        const EquilibriumBranch b = continue_equilibrium(eq, values, 0, {c + 0.1, c - 0.1, r - 1.0 + 0.2}, s);
        CHECK(b.points.front().state[0] == Approx(c).epsilon(1e-12));
        const auto h = labelled(b, "H");
        REQUIRE(h.size() == 1);
        const double r_hopf = sigma * (sigma + beta + 3.0) / (sigma - beta - 1.0);
        CHECK(h[0]->parameter == Approx(r_hopf).margin(1e-8));
        // On the branch: x = y = sqrt(beta (r - 1)), z = r - 1.
        CHECK(h[0]->state[0] == Approx(std::sqrt(beta * (r_hopf - 1.0))).epsilon(1e-10));
        // Lorenz's Hopf bifurcation is subcritical.
        CHECK(h[0]->first_lyapunov > 0.0);
        for (const auto& p : b.points) {
            if (p.parameter < r_hopf - 1e-3) CHECK(p.stability.unstable == 0);
            if (p.parameter > r_hopf + 1e-3) CHECK(p.stability.unstable == 2);
        }
    }
    SECTION("C+ continued down in r meets the origin's branch at the pitchfork") {
        ContinuationSettings s = along(0.5, 30.0, -1);
        s.box[0].component = 3;
        const double r = 5.0, c = std::sqrt(beta * (r - 1.0));
        const EquilibriumBranch b = continue_equilibrium(
            eq, parameter_values(m, {{"rho", r}, {"beta", beta}}), 0, {c, c, r - 1.0}, s);
        const auto bp = labelled(b, "BP");
        REQUIRE_FALSE(bp.empty());
        CHECK(bp[0]->parameter == Approx(1.0).margin(1e-7));
        CHECK(std::abs(bp[0]->state[0]) < 1e-4);
    }
}

TEST_CASE("Brusselator: Hopf at b = 1 + a^2, supercritical", "[continuation][branch]") {
    const bif::model::Model m = parsed_model(brusselator);
    const ModelEquations eq(m, {m.parameter_index("b")});
    for (const double a : {1.0, 1.5, 2.5}) {
        ContinuationSettings s = along(1.0, 10.0, 1);
        s.box[0].component = 2;
        const EquilibriumBranch b = continue_equilibrium(eq, {a, 1.5}, 0, {a, 1.5 / a}, s);
        const auto h = labelled(b, "H");
        REQUIRE(h.size() == 1);
        INFO("a = " << a);
        CHECK(h[0]->parameter == Approx(1.0 + a * a).margin(1e-8));
        CHECK(h[0]->first_lyapunov < 0.0);
        // The imaginary pair there: +- i a (det J = a^2).
        CHECK(std::abs(h[0]->eigenvalues[0].imag()) == Approx(a).epsilon(1e-8));
        CHECK(labelled(b, "LP").empty());
        CHECK(labelled(b, "BP").empty());
    }
}

TEST_CASE("the exact d f / d p goes through derived parameters", "[continuation][branch]") {
    const bif::model::Model m = parsed_model(brusselator);
    const ModelEquations eq(m, {m.parameter_index("b"), m.parameter_index("a")});
    const std::vector<double> y = {0.7, 1.9};
    for (int k = 0; k < 2; ++k) {
        std::vector<double> values = {1.3, 2.1}, plus = values, minus = values;
        const double h = 1e-6;
        plus[std::size_t(eq.differentiated_parameters()[std::size_t(k)])] += h;
        minus[std::size_t(eq.differentiated_parameters()[std::size_t(k)])] -= h;
        double exact[2], fp[2], fm[2];
        eq.parameter_derivative(k, y.data(), eq.slots(values).data(), exact);
        eq.rhs(y.data(), eq.slots(plus).data(), fp);
        eq.rhs(y.data(), eq.slots(minus).data(), fm);
        for (int i = 0; i < 2; ++i)
            CHECK(exact[i] == Approx((fp[i] - fm[i]) / (2 * h)).epsilon(1e-8));
    }
    // d f_x / d b = -x (through bp1 = b + 1), d f_y / d b = x.
    double d[2];
    eq.parameter_derivative(0, y.data(), eq.slots({1.3, 2.1}).data(), d);
    CHECK(d[0] == Approx(-0.7));
    CHECK(d[1] == Approx(0.7));
}

TEST_CASE("van der Pol: Hopf of the origin at mu = 0", "[continuation][branch]") {
    const bif::model::Model m = bundled_model("vanderpol.ode");
    const ModelEquations eq(m, {0});
    ContinuationSettings s = along(-1.0, 1.0, 1);
    s.box[0].component = 2;
    const EquilibriumBranch b = continue_equilibrium(eq, {-0.7}, 0, {0.0, 0.0}, s);
    const auto h = labelled(b, "H");
    REQUIRE(h.size() == 1);
    CHECK(std::abs(h[0]->parameter) < 1e-10);
    CHECK(h[0]->stability.type == EquilibriumType::Centre);
    CHECK(b.points.front().stability.is_stable());
    CHECK(b.points.back().stability.unstable == 2);
}

TEST_CASE("folds of x' = r + x - x^3 at r = -+2/(3 sqrt 3), and of x' = r + x^2 at r = 0",
          "[continuation][branch]") {
    SECTION("the S-shaped branch, two folds, the middle part unstable") {
        const bif::model::Model m = parsed_model("x'=r+x-x^3\npar r=-1\ndone\n");
        const ModelEquations eq(m, {0});
        ContinuationSettings s = along(-1.0, 1.0, 1);
        s.box[0].component = 1;
        // On the upper part, from r = 0.5 up: no fold before the box's end at r = 1.
        const EquilibriumBranch up = continue_equilibrium(eq, {0.5}, 0, {1.2}, s);
        REQUIRE_FALSE(up.points.empty());
        CHECK(labelled(up, "LP").empty());
        CHECK(up.points.back().parameter == Approx(1.0));
        // From the lower part at r = -1 (x^3 - x - 1 = 0, from a start at x = -1.3): up to the fold at
        // x = -1/sqrt 3, back down the middle part to the fold at x = 1/sqrt 3, then up again.
        const EquilibriumBranch down = continue_equilibrium(eq, {-1.0}, 0, {-1.3}, s);
        REQUIRE_FALSE(down.points.empty());
        CHECK(down.points.front().state[0] == Approx(-1.324717957244746).epsilon(1e-12));
        const auto lp = labelled(down, "LP");
        REQUIRE(lp.size() == 2);
        const double r_fold = 2.0 / (3.0 * std::sqrt(3.0));
        CHECK(lp[0]->parameter == Approx(r_fold).margin(1e-10));
        CHECK(lp[0]->state[0] == Approx(-1.0 / std::sqrt(3.0)).margin(1e-6));
        CHECK(lp[1]->parameter == Approx(-r_fold).margin(1e-10));
        CHECK(lp[1]->state[0] == Approx(1.0 / std::sqrt(3.0)).margin(1e-6));
        CHECK(down.points.back().parameter == Approx(1.0));
        for (const auto& p : down.points) {
            const double slope = 1.0 - 3.0 * p.state[0] * p.state[0]; // f'(x)
            if (std::abs(slope) > 1e-6) CHECK(p.stability.unstable == (slope > 0 ? 1 : 0));
        }
        CHECK(labelled(down, "H").empty());
        CHECK(labelled(down, "BP").empty());
    }
    SECTION("the parabola r = -x^2") {
        const bif::model::Model m = parsed_model("x'=r+x^2\npar r=-1\ndone\n");
        const ModelEquations eq(m, {0});
        ContinuationSettings s = along(-1.0, 1.0, 1);
        s.box[0].component = 1;
        const EquilibriumBranch b = continue_equilibrium(eq, {-1.0}, 0, {-1.0}, s);
        const auto lp = labelled(b, "LP");
        REQUIRE(lp.size() == 1);
        CHECK(std::abs(lp[0]->parameter) < 1e-12);
        CHECK(std::abs(lp[0]->state[0]) < 1e-6);
        CHECK(b.points.back().state[0] == Approx(1.0));
        CHECK(b.points.back().parameter == Approx(-1.0));
    }
}

TEST_CASE("the first Lyapunov coefficient of the Hopf normal form", "[continuation][branch]") {
    // z' = (mu + i w) z + a z |z|^2 in z = x + i y: l1 = 2 a / w (Kuznetsov's normalisation).
    const bif::model::Model m =
        parsed_model("par mu=-0.5, w=2, a=-1\nx'=mu*x-w*y+a*x*(x^2+y^2)\ny'=w*x+mu*y+a*y*(x^2+y^2)\ndone\n");
    const ModelEquations eq(m, {0});
    for (const double a : {-1.0, 0.5}) {
        ContinuationSettings s = along(-0.5, 0.5, 1);
        s.box[0].component = 2;
        const EquilibriumBranch b = continue_equilibrium(eq, {-0.5, 2.0, a}, 0, {0.0, 0.0}, s);
        const auto h = labelled(b, "H");
        REQUIRE(h.size() == 1);
        CHECK(std::abs(h[0]->parameter) < 1e-10);
        CHECK(h[0]->first_lyapunov == Approx(2.0 * a / 2.0).epsilon(1e-6));
    }
}
