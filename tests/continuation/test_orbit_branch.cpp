// Orbit branches through the pseudo-arclength core (engine/continuation/orbit_branch.h), with the
// special points in closed form:
//   - the Henon map's fixed points x = (-(1 - b) +- sqrt((1 - b)^2 + 4 a)) / (2 a): a fold (LP) at
//     a = -(1 - b)^2 / 4, where the two branches meet, and a period doubling of the stable one at
//     a = 3 (1 - b)^2 / 4 (its multiplier mu^2 + 2 a x mu - b = 0 reaches -1 there);
//   - the logistic map's fixed point branch with PD at r = 3 and its CSV.
#include "engine/continuation/map_orbit.h"
#include "engine/continuation/orbit_branch.h"
#include "engine/continuation/orbit_csv.h"
#include "orbit_test_support.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace bif::cont;

namespace {

std::vector<const OrbitBranchPoint*> labelled(const OrbitBranch& b, const std::string& label) {
    std::vector<const OrbitBranchPoint*> out;
    for (const OrbitBranchPoint& p : b.points)
        if (p.label == label) out.push_back(&p);
    return out;
}

} // namespace

TEST_CASE("Henon fixed points: the branch turns at its fold and doubles where the closed form says",
          "[orbit][branch]") {
    const auto m = orbit_test::load_bundled("henon.ode");
    const double b = 0.3;
    const MapOrbit fixed(*m.host, ModelParameters(*m.host, m.parameters, m.parameter("a")), 1);
    ContinuationSettings s;
    s.direction = -1;
    s.initial_step = 0.01;
    s.max_step = 0.05;
    s.max_points = 400;
    s.box = {{2, -1.0, 1.0}, {0, -10.0, 10.0}}; // a in [-1, 1]; the saddle branch runs off as a -> 0
    // from a = 0.1 on the stable branch, down through the fold and back up the unstable one
    const double a0 = 0.1, x0 = (-(1 - b) + std::sqrt((1 - b) * (1 - b) + 4 * a0)) / (2 * a0);
    const OrbitBranch branch = continue_orbit(fixed, Eigen::Vector2d(x0, b * x0), a0, s);
    INFO(branch.message);
    const auto folds = labelled(branch, "LP");
    REQUIRE(folds.size() == 1);
    CHECK(folds[0]->parameter == Approx(-(1 - b) * (1 - b) / 4).epsilon(1e-8));
    CHECK(folds[0]->unknowns[0] == Approx(-(1 - b) / (2 * -(1 - b) * (1 - b) / 4)).epsilon(1e-4));
    // at the fold a multiplier is +1
    double nearest = INFINITY;
    for (const FloquetMultiplier& mu : folds[0]->stability.multipliers)
        nearest = std::min(nearest, std::abs(mu.value - 1.0));
    CHECK(nearest < 1e-4);
    // the stable part before the fold, the saddle part after
    CHECK(branch.points.front().stability.stable());
    CHECK(branch.points.back().stability.unstable == 1);
    CHECK(branch.stop == StopReason::LeftBox);
    // up from a = 0.1: the stable fixed point doubles
    s.direction = 1;
    const OrbitBranch up = continue_orbit(fixed, Eigen::Vector2d(x0, b * x0), a0, s);
    const auto doublings = labelled(up, "PD");
    REQUIRE(doublings.size() == 1);
    CHECK(doublings[0]->parameter == Approx(3 * (1 - b) * (1 - b) / 4).epsilon(1e-9));
    CHECK(up.points.back().stability.unstable == 1);
}

TEST_CASE("logistic fixed point branch: PD at r = 3, written as CSV with its multipliers",
          "[orbit][branch]") {
    const auto m = orbit_test::load_bundled("logistic.ode");
    const MapOrbit fixed(*m.host, ModelParameters(*m.host, m.parameters, m.parameter("r")), 1);
    ContinuationSettings s;
    s.initial_step = 0.05;
    s.max_step = 0.1;
    s.box = {{1, 2.5, 3.5}};
    const OrbitBranch branch = continue_orbit(fixed, Eigen::VectorXd::Constant(1, 1 - 1 / 2.6), 2.6, s);
    const auto pd = labelled(branch, "PD");
    REQUIRE(pd.size() == 1);
    CHECK(pd[0]->parameter == Approx(3.0).epsilon(1e-9));
    CHECK(pd[0]->stability.multipliers.at(0).value.real() == Approx(-1.0).margin(1e-8));
    std::ostringstream csv;
    write_orbit_branch_csv(csv, branch, "r", {"x"});
    const std::string text = csv.str();
    CHECK(text.rfind("r,x,period,stable,unstable,label,arclength,mu_abs_1,mu_re_1,mu_im_1\n", 0) == 0);
    CHECK(text.find(",PD,") != std::string::npos);
    CHECK(std::count(text.begin(), text.end(), '\n') == static_cast<long>(branch.points.size()) + 1);
}
