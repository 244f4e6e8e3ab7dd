// Branch switching (engine/continuation/branch_switching.h) against closed forms:
//   - Lorenz (sigma = 10, beta = 8/3): the origin's pitchfork at r = 1; the switched branch is
//     C+- = (+-sqrt(beta (r - 1)), +-sqrt(beta (r - 1)), r - 1), and C+ has its Hopf point at
//     r = sigma (sigma + beta + 3) / (sigma - beta - 1);
//   - the logistic map x -> r x (1 - x): its period-2 orbit, born at r = 3, is
//     x = (r + 1 +- sqrt((r + 1)(r - 3))) / (2 r), and doubles at r = 1 + sqrt(6) (its multiplier
//     -r^2 + 2 r + 4 is -1 there);
//   - the cascade's doubling points, each found on the branch switched to at the previous one,
//     against the published r_j (Briggs, Math. Comp. 57 (1991) 435) and their ratios
//     (r_j - r_{j-1}) / (r_{j+1} - r_j) = 4.7514, 4.6562, 4.6683, 4.6686, 4.6692 -> delta = 4.6692016...
//     (Feigenbaum, J. Stat. Phys. 19 (1978) 25).
#include "engine/continuation/equilibrium_branch.h"
#include "engine/continuation/map_orbit.h"
#include "engine/continuation/orbit_branch.h"
#include "model_text.h"
#include "orbit_test_support.h"

#include <cmath>

using namespace bif::cont;

namespace {

constexpr double feigenbaum_delta = 4.669201609102990;

template <class Branch>
auto labelled(const Branch& b, const std::string& label) {
    std::vector<const typename decltype(b.points)::value_type*> out;
    for (const auto& p : b.points)
        if (p.label == label) out.push_back(&p);
    return out;
}

Eigen::VectorXd vector_of(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
}

} // namespace

TEST_CASE("Lorenz: switching at the pitchfork r = 1 onto C+ and C-", "[continuation][branch][switch]") {
    const bif::model::Model m = bundled_model("lorenz.ode");
    const double sigma = 10.0, beta = 8.0 / 3.0;
    const ModelEquations eq(m, {m.parameter_index("rho")});
    const auto values = parameter_values(m, {{"rho", 0.5}, {"beta", beta}});
    ContinuationSettings s;
    s.initial_step = 0.01;
    s.max_step = 0.5;
    s.max_points = 2000;
    s.box = {{3, 0.0, 30.0}};
    const EquilibriumBranch origin = continue_equilibrium(eq, values, 0, {0.0, 0.0, 0.0}, s);
    std::size_t bp = origin.points.size();
    for (std::size_t i = 0; i < origin.points.size(); ++i)
        if (origin.points[i].label == "BP") bp = i;
    REQUIRE(bp < origin.points.size());

    double sign_of_side[2] = {0, 0};
    for (int side : {1, -1}) {
        INFO("side " << side);
        const EquilibriumBranch c = switch_equilibrium_branch(eq, values, 0, origin, bp, side, s);
        REQUIRE(c.points.size() > 10);
        CHECK(c.points.front().label == "BP");
        CHECK(c.points.back().label == "EP");
        CHECK(c.points.back().parameter == Approx(30.0));
        for (const EquilibriumBranchPoint& p : c.points) {
            const double r = p.parameter, x = std::sqrt(beta * (r - 1));
            INFO("r = " << r);
            CHECK(std::abs(p.state[0]) == Approx(x).margin(1e-9));
            CHECK(p.state[1] == Approx(p.state[0]).margin(1e-9));
            CHECK(p.state[2] == Approx(r - 1).margin(1e-9));
        }
        sign_of_side[side > 0] = c.points.back().state[0];
        const auto hopf = labelled(c, "H");
        REQUIRE(hopf.size() == 1);
        CHECK(hopf[0]->parameter == Approx(sigma * (sigma + beta + 3) / (sigma - beta - 1)).epsilon(1e-9));
        // stable between the pitchfork and the Hopf point
        for (const EquilibriumBranchPoint& p : c.points)
            if (p.parameter > 1.01 && p.parameter < hopf[0]->parameter - 0.01)
                CHECK(p.stability.unstable == 0);
    }
    CHECK(sign_of_side[0] * sign_of_side[1] < 0); // one side each
    CHECK_THROWS_AS(switch_equilibrium_branch(eq, values, 0, origin, 3, 1, s), std::invalid_argument);
}

TEST_CASE("logistic map: the period-2 branch switched to at r = 3", "[orbit][branch][switch]") {
    const auto m = orbit_test::load_bundled("logistic.ode");
    const int r = m.parameter("r");
    const MapOrbit period1(*m.host, ModelParameters(*m.host, m.parameters, r), 1);
    const MapOrbit period2(*m.host, ModelParameters(*m.host, m.parameters, r), 2);
    ContinuationSettings s;
    s.initial_step = 0.02;
    s.max_step = 0.05;
    s.box = {{1, 2.5, 3.5}};
    const OrbitBranch fixed = continue_orbit(period1, Eigen::VectorXd::Constant(1, 1 - 1 / 2.6), 2.6, s);
    const auto pd = labelled(fixed, "PD");
    REQUIRE(pd.size() == 1);
    double end_of_side[2] = {0, 0};
    for (int side : {1, -1}) {
        INFO("side " << side);
        const OrbitBranch two =
            continue_doubled_orbit(period2, vector_of(pd[0]->unknowns), pd[0]->parameter, s, side);
        REQUIRE(two.points.size() > 5);
        CHECK(two.points.front().label == "PD");
        CHECK(two.stop == StopReason::LeftBox);
        for (const OrbitBranchPoint& p : two.points) {
            const double rr = p.parameter, x = p.unknowns[0];
            const double root = std::sqrt(std::max(0.0, (rr + 1) * (rr - 3)));
            const double upper = (rr + 1 + root) / (2 * rr), lower = (rr + 1 - root) / (2 * rr);
            INFO("r = " << rr << ", x = " << x);
            CHECK(std::min(std::abs(x - upper), std::abs(x - lower)) < 1e-9);
            if (p.stability.multipliers.size() == 1 && std::abs(rr - 3) > 1e-6)
                CHECK(p.stability.multipliers[0].value.real() == Approx(-rr * rr + 2 * rr + 4).margin(1e-8));
        }
        const auto next = labelled(two, "PD");
        REQUIRE(next.size() == 2); // the start and the next doubling
        CHECK(next[1]->parameter == Approx(1 + std::sqrt(6.0)).epsilon(1e-11));
        end_of_side[side > 0] = two.points.back().unknowns[0];
    }
    CHECK(std::abs(end_of_side[0] - end_of_side[1]) > 0.3); // the orbit's two points, one per side
}

TEST_CASE("logistic map: the cascade by repeated switching converges at Feigenbaum's rate",
          "[orbit][branch][switch]") {
    const auto m = orbit_test::load_bundled("logistic.ode");
    const int r = m.parameter("r");
    // Briggs (1991), r_1 .. r_6
    const std::vector<double> published = {
        3.0, 3.449489742783178, 3.544090359551922, 3.564407266095233, 3.568759419544629, 3.569691609801396};
    ContinuationSettings s;
    s.initial_step = 0.02;
    s.max_step = 0.05;
    s.box = {{1, 2.5, 3.5}};
    const MapOrbit period1(*m.host, ModelParameters(*m.host, m.parameters, r), 1);
    const OrbitBranch fixed = continue_orbit(period1, Eigen::VectorXd::Constant(1, 0.6), 2.6, s);
    const auto first = labelled(fixed, "PD");
    REQUIRE(first.size() == 1);
    std::vector<double> doubling = {first[0]->parameter};
    Eigen::VectorXd at = vector_of(first[0]->unknowns);
    // each level's branch spans about gap / delta in r and sqrt of that in x; its steps and box
    // follow from the last gap, with the ratio 4 (below every ratio of the cascade); the first gap
    // is the fixed point's span, from its birth at r = 1 to r_1
    double gap = doubling.back() - 1;
    for (int period = 2; period <= 32; period *= 2) {
        INFO("period " << period);
        const MapOrbit orbit(*m.host, ModelParameters(*m.host, m.parameters, r), period);
        const double span = gap / 4;
        s.max_step = 0.1 * std::sqrt(span);
        s.initial_step = 0.1 * s.max_step;
        s.max_points = 400;
        s.box = {{1, doubling.back() - span, doubling.back() + 2 * span}};
        const OrbitBranch branch = continue_doubled_orbit(orbit, at, doubling.back(), s);
        const auto pd = labelled(branch, "PD");
        INFO(branch.message);
        REQUIRE(pd.size() == 2);
        gap = pd[1]->parameter - doubling.back();
        doubling.push_back(pd[1]->parameter);
        at = vector_of(pd[1]->unknowns);
    }
    REQUIRE(doubling.size() == published.size());
    for (std::size_t j = 0; j < published.size(); ++j)
        CHECK(doubling[j] == Approx(published[j]).epsilon(1e-12));
    auto ratios_of = [](const std::vector<double>& r) {
        std::vector<double> out;
        for (std::size_t j = 1; j + 1 < r.size(); ++j)
            out.push_back((r[j] - r[j - 1]) / (r[j + 1] - r[j]));
        return out;
    };
    const std::vector<double> ratios = ratios_of(doubling), known = ratios_of(published);
    REQUIRE(ratios.size() == 4);
    for (std::size_t j = 0; j < known.size(); ++j) {
        INFO("ratio " << j + 1 << ": " << ratios[j]); // 4.7514, 4.6562, 4.6683, 4.6686
        CHECK(ratios[j] == Approx(known[j]).epsilon(1e-7));
    }
    // towards delta, the error shrinking about delta-fold per level
    for (std::size_t j = 1; j < ratios.size(); ++j)
        CHECK(std::abs(ratios[j] - feigenbaum_delta) < std::abs(ratios[j - 1] - feigenbaum_delta));
    CHECK(std::abs(ratios.back() - feigenbaum_delta) < 2e-4 * feigenbaum_delta);
}
