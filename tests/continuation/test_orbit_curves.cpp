// Two-parameter curves of orbit bifurcations (engine/continuation/orbit_curve.h) against closed
// forms, each derived here:
//   - the Henon map x -> 1 - a x^2 + y, y -> b x: fixed points a x^2 + (1 - b) x - 1 = 0, Jacobian
//     [[-2 a x, 1], [b, 0]] with trace -2 a x and determinant -b, so multipliers with
//     mu^2 + 2 a x mu - b = 0 and mu_1 mu_2 = -b:
//       fold (mu = 1):   a = -(1 - b)^2 / 4, x = 2 / (1 - b); the other multiplier is -b: R1 at b = -1;
//       flip (mu = -1):  a = 3 (1 - b)^2 / 4, x = 2 / (3 (1 - b)); the other is b: R2 at b = -1;
//       NS (|mu| = 1, complex): det = 1, so b = -1 for every a, with cos theta = -a x = 1 - sqrt(1 + a)
//         on the branch x = (sqrt(1 + a) - 1) / a: R1 at a = -1, R4 at a = 0, R3 at a = 5/4 and
//         R2 at a = 3 (cos theta = 1, 0, -1/2, -1);
//   - the delayed logistic map x -> r x (1 - y), y -> x (Maynard Smith 1968), here with a second
//     parameter c: x -> r x (1 - y) + c (x - y). Its fixed point x = y = 1 - 1/r does not depend
//     on c; the Jacobian there is [[1 + c, 1 - r - c], [1, 0]], determinant r - 1 + c and trace
//     1 + c: NS where r = 2 - c (r = 2 at c = 0, the delayed logistic map's own), cos theta =
//     (1 + c) / 2: R4 at c = -1, R3 at c = -2, R2 at c = -3;
//   - a cycle fold of an autonomous flow by shooting: x' = x s - y, y' = y s + x with
//     s = mu + beta rho - rho^2, rho = x^2 + y^2, has the circles mu + beta rho - rho^2 = 0 as
//     cycles of period 2 pi; two meet where beta = 2 rho: the fold curve mu = -beta^2 / 4 with
//     rho = beta / 2;
//   - the forced Duffing oscillator (resources/models/duffing.ode): a point of its PD curve in
//     (k, b) against the PD of the one-parameter branch in k at that point's b.
#include "engine/continuation/map_orbit.h"
#include "engine/continuation/orbit_branch.h"
#include "engine/continuation/orbit_curve.h"
#include "engine/continuation/orbit_curve_tests.h"
#include "engine/continuation/orbit_newton.h"
#include "engine/continuation/orbit_shooting.h"
#include "engine/continuation/orbit_stroboscopic.h"
#include "orbit_test_support.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace bif::cont;

namespace {

constexpr double pi = 3.14159265358979323846;

OrbitFactory map_factory(const orbit_test::LoadedModel& m, int alpha, int k = 1) {
    return [&m, alpha, k](const std::vector<double>& user) {
        return std::make_unique<MapOrbit>(*m.host, ModelParameters(*m.host, user, alpha), k);
    };
}

const OrbitBranchPoint& only(const OrbitBranch& b, const std::string& label) {
    const OrbitBranchPoint* found = nullptr;
    int count = 0;
    for (const OrbitBranchPoint& p : b.points)
        if (p.label == label) found = &p, ++count;
    INFO(b.message);
    REQUIRE(count == 1);
    return *found;
}

std::vector<const OrbitCurvePoint*> labelled(const OrbitCurve& c, const std::string& label) {
    std::vector<const OrbitCurvePoint*> out;
    for (const OrbitCurvePoint& p : c.points)
        if (p.label == label) out.push_back(&p);
    return out;
}

Eigen::VectorXd vector_of(const std::vector<double>& v) {
    return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size()));
}

// Both directions from the start, the down part's start dropped.
std::vector<OrbitCurvePoint> both_ways(const OrbitFactory& factory, OrbitBifurcation kind,
                                       const OrbitCurveStart& start, ParameterInterval alpha,
                                       ParameterInterval beta, ContinuationSettings s,
                                       OrbitCurve* up_out = nullptr, OrbitCurve* down_out = nullptr) {
    s.direction = 1;
    OrbitCurve up = continue_orbit_curve(factory, kind, start, alpha, beta, s);
    s.direction = -1;
    OrbitCurve down = continue_orbit_curve(factory, kind, start, alpha, beta, s);
    std::vector<OrbitCurvePoint> all = up.points;
    if (!down.points.empty()) all.insert(all.end(), down.points.begin() + 1, down.points.end());
    if (up_out) *up_out = std::move(up);
    if (down_out) *down_out = std::move(down);
    return all;
}

} // namespace

TEST_CASE("second compound matrix: its eigenvalues are the products of pairs of eigenvalues",
          "[orbit][curve]") {
    Eigen::Matrix3d s;
    s << 1, 2, 0, 0.5, 1, 3, 1, -1, 1;
    const Eigen::Vector3d d(0.5, -2.0, 3.0);
    const Eigen::MatrixXd m = s * d.asDiagonal() * s.inverse();
    Eigen::VectorXd got = second_compound(m).eigenvalues().real();
    std::sort(got.data(), got.data() + got.size());
    CHECK(got[0] == Approx(-6.0).epsilon(1e-12));
    CHECK(got[1] == Approx(-1.0).epsilon(1e-12));
    CHECK(got[2] == Approx(1.5).epsilon(1e-12));
}

TEST_CASE("Henon map: the flip and fold curves of the fixed points and their 1:2 and 1:1 resonances",
          "[orbit][curve][map]") {
    const auto m = orbit_test::load_bundled("henon.ode");
    const int a = m.parameter("a"), b = m.parameter("b");
    const OrbitFactory factory = map_factory(m, a);
    std::vector<double> user = m.parameters;
    user[std::size_t(b)] = 0.3;
    const MapOrbit fixed(*m.host, ModelParameters(*m.host, user, a), 1);
    ContinuationSettings s;
    s.initial_step = 0.01;
    s.max_step = 0.05;
    s.box = {{2, -1.0, 1.0}};
    const double a0 = 0.1, x0 = (-(1 - 0.3) + std::sqrt(0.49 + 4 * a0)) / (2 * a0);
    const OrbitBranch up = continue_orbit(fixed, Eigen::Vector2d(x0, 0.3 * x0), a0, s);
    s.direction = -1;
    const OrbitBranch down = continue_orbit(fixed, Eigen::Vector2d(x0, 0.3 * x0), a0, s);

    ContinuationSettings c;
    c.initial_step = 0.02;
    c.max_step = 0.1;
    c.max_points = 200;
    SECTION("flip curve a = 3 (1 - b)^2 / 4, R2 at (3, -1)") {
        const OrbitBranchPoint& pd = only(up, "PD");
        const OrbitCurveStart start{user, a, b, vector_of(pd.unknowns), pd.parameter};
        OrbitCurve upper, lower;
        const auto points = both_ways(factory, OrbitBifurcation::PeriodDoubling, start, {-5, 10}, {-1.5, 0.9},
                                      c, &upper, &lower);
        CHECK(upper.stop == StopReason::LeftBox);
        CHECK(lower.stop == StopReason::LeftBox);
        CHECK(upper.points.back().beta == Approx(0.9).margin(1e-9));
        CHECK(lower.points.back().beta == Approx(-1.5).margin(1e-9));
        for (const OrbitCurvePoint& p : points) {
            INFO("b = " << p.beta);
            CHECK(p.alpha == Approx(0.75 * (1 - p.beta) * (1 - p.beta)).epsilon(1e-9));
            CHECK(p.unknowns[0] == Approx(2 / (3 * (1 - p.beta))).epsilon(1e-9));
            CHECK(p.stability.multipliers.size() == 2);
        }
        const auto r2 = labelled(lower, "R2");
        REQUIRE(r2.size() == 1);
        CHECK(r2[0]->beta == Approx(-1).epsilon(1e-8));
        CHECK(r2[0]->alpha == Approx(3).epsilon(1e-8));
        CHECK(labelled(upper, "R2").empty());
        CHECK(labelled(upper, "LPPD").empty()); // at b = 1, outside the box
    }
    SECTION("fold curve a = -(1 - b)^2 / 4, R1 at (-1, -1)") {
        const OrbitBranchPoint& lp = only(down, "LP");
        const OrbitCurveStart start{user, a, b, vector_of(lp.unknowns), lp.parameter};
        OrbitCurve upper, lower;
        const auto points =
            both_ways(factory, OrbitBifurcation::Fold, start, {-5, 5}, {-1.5, 0.6}, c, &upper, &lower);
        CHECK(upper.stop == StopReason::LeftBox);
        CHECK(lower.stop == StopReason::LeftBox);
        for (const OrbitCurvePoint& p : points) {
            INFO("b = " << p.beta);
            CHECK(p.alpha == Approx(-0.25 * (1 - p.beta) * (1 - p.beta)).epsilon(1e-9));
            CHECK(p.unknowns[0] == Approx(2 / (1 - p.beta)).epsilon(1e-8));
        }
        const auto r1 = labelled(lower, "R1");
        REQUIRE(r1.size() == 1);
        CHECK(r1[0]->beta == Approx(-1).epsilon(1e-8));
        CHECK(r1[0]->alpha == Approx(-1).epsilon(1e-8));
    }
}

TEST_CASE("Henon map: the Neimark-Sacker curve b = -1 and its strong resonances R1..R4",
          "[orbit][curve][map]") {
    const auto m = orbit_test::load_bundled("henon.ode");
    const int a = m.parameter("a"), b = m.parameter("b");
    std::vector<double> user = m.parameters;
    user[std::size_t(a)] = 1.0;
    // the branch in b at a = 1 from b = -0.5 down: NS at b = -1
    const MapOrbit fixed(*m.host, ModelParameters(*m.host, user, b), 1);
    const double b0 = -0.5, x0 = (-(1 - b0) + std::sqrt((1 - b0) * (1 - b0) + 4)) / 2;
    ContinuationSettings s;
    s.direction = -1;
    s.initial_step = 0.02;
    s.max_step = 0.05;
    s.box = {{2, -1.5, 0.0}};
    const auto branch =
        continue_orbit(fixed, Eigen::Vector2d(x0, b0 * x0), b0, s); // kept: `only` refers into it
    const OrbitBranchPoint& ns = only(branch, "NS");
    CHECK(ns.parameter == Approx(-1).epsilon(1e-9));

    // the curve in (b, a): alpha = b, beta = a
    user[std::size_t(b)] = ns.parameter;
    const OrbitCurveStart start{user, b, a, vector_of(ns.unknowns), ns.parameter};
    ContinuationSettings c;
    c.initial_step = 0.02;
    c.max_step = 0.1;
    c.max_points = 300;
    c.box = {{0, -20.0, 20.0}};
    OrbitCurve upper, lower;
    const auto points = both_ways(map_factory(m, b), OrbitBifurcation::NeimarkSacker, start, {-2, 0},
                                  {-2, 3.5}, c, &upper, &lower);
    INFO(upper.message << " / " << lower.message);
    for (const OrbitCurvePoint& p : points)
        CHECK(p.alpha == Approx(-1).epsilon(1e-10));
    struct Resonance {
        const char* label;
        double a;
        const OrbitCurve* curve;
    };
    for (const Resonance& r : {Resonance{"R1", -1.0, &lower}, Resonance{"R4", 0.0, &lower},
                               Resonance{"R3", 1.25, &upper}, Resonance{"R2", 3.0, &upper}}) {
        INFO(r.label);
        const auto found = labelled(*r.curve, r.label);
        REQUIRE(found.size() == 1);
        CHECK(found[0]->beta == Approx(r.a).margin(1e-8));
        if (std::string(r.label) != "R1") {
            // on the stable branch x = (sqrt(1 + a) - 1) / a, cos theta = 1 - sqrt(1 + a)
            CHECK(neimark_sacker_cosine(found[0]->stability) == Approx(1 - std::sqrt(1 + r.a)).margin(1e-8));
        }
    }
    // beyond R1 the curve turns back in a onto the saddle branch (a neutral saddle), until x leaves
    CHECK(lower.stop == StopReason::LeftBox);
    CHECK(std::abs(lower.points.back().unknowns[0]) == Approx(20).epsilon(1e-9));
    CHECK(upper.points.back().beta == Approx(3.5).margin(1e-9));
}

TEST_CASE("delayed logistic map: Neimark-Sacker at r = 2, continued along r = 2 - c", "[orbit][curve][map]") {
    const auto m = orbit_test::load_text("par r=1.8, c=0\nx(t+1)=r*x*(1-y)+c*(x-y)\ny(t+1)=x\ndone\n");
    const int r = m.parameter("r"), c = m.parameter("c");
    const MapOrbit fixed(*m.host, ModelParameters(*m.host, m.parameters, r), 1);
    ContinuationSettings s;
    s.initial_step = 0.02;
    s.max_step = 0.05;
    s.box = {{2, 1.5, 2.5}};
    const double x0 = 1 - 1 / 1.8;
    const OrbitBranch branch = continue_orbit(fixed, Eigen::Vector2d(x0, x0), 1.8, s);
    const OrbitBranchPoint& ns = only(branch, "NS");
    CHECK(ns.parameter == Approx(2).epsilon(1e-10));
    CHECK(std::abs(std::arg(ns.stability.multipliers.at(0).value)) == Approx(pi / 3).epsilon(1e-8));
    CHECK(branch.points.front().stability.stable());
    CHECK(!branch.points.back().stability.stable());

    const OrbitCurveStart start{m.parameters, r, c, vector_of(ns.unknowns), ns.parameter};
    ContinuationSettings cs;
    cs.initial_step = 0.05;
    cs.max_step = 0.2;
    OrbitCurve upper, lower;
    const auto points = both_ways(map_factory(m, r), OrbitBifurcation::NeimarkSacker, start, {0, 10},
                                  {-3.5, 0.5}, cs, &upper, &lower);
    for (const OrbitCurvePoint& p : points) {
        INFO("c = " << p.beta);
        CHECK(p.alpha == Approx(2 - p.beta).epsilon(1e-10));
        CHECK(p.unknowns[0] == Approx(1 - 1 / p.alpha).epsilon(1e-10));
    }
    const std::vector<std::pair<const char*, double>> resonances = {{"R4", -1}, {"R3", -2}, {"R2", -3}};
    for (const auto& [label, at] : resonances) {
        INFO(label);
        const auto found = labelled(lower, label);
        REQUIRE(found.size() == 1);
        CHECK(found[0]->beta == Approx(at).margin(1e-8));
        CHECK(found[0]->alpha == Approx(2 - at).epsilon(1e-8));
    }
    CHECK(upper.points.back().beta == Approx(0.5).margin(1e-9));
    CHECK(lower.points.back().beta == Approx(-3.5).margin(1e-9));
}

TEST_CASE("a cycle fold of an autonomous flow by shooting: mu = -beta^2 / 4", "[orbit][curve][flow]") {
    const auto m = orbit_test::load_text("par mu=-0.3, beta=1.5\n"
                                         "s=mu+beta*(x^2+y^2)-(x^2+y^2)^2\n"
                                         "x'=x*s-y\ny'=y*s+x\ndone\n");
    const int mu = m.parameter("mu"), beta = m.parameter("beta");
    FlowSettings flow;
    flow.rtol = 1e-11;
    flow.atol = 1e-12;
    // the outer (stable) cycle: rho = (beta + sqrt(beta^2 + 4 mu)) / 2
    const double rho = (1.5 + std::sqrt(2.25 - 1.2)) / 2;
    const Eigen::Vector2d x0(std::sqrt(rho), 0.0);
    const OrbitFactory factory = [&](const std::vector<double>& user) {
        return std::make_unique<ShootingOrbit>(*m.host, ModelParameters(*m.host, user, mu), x0, flow, 4);
    };
    const auto orbit = factory(m.parameters);
    ContinuationSettings s;
    s.direction = -1;
    s.initial_step = 0.02;
    s.max_step = 0.05;
    s.max_points = 100;
    // The branch keeps its phase condition's first reference (orbit_branch.h), whose hyperplane
    // turns with mu: far up the inner cycles it folds where that plane stops cutting them.
    s.box = {{3, -0.8, -0.2}};
    const Eigen::Vector3d u0(x0[0], x0[1], 2 * pi);
    const OrbitBranch branch = continue_orbit(*orbit, u0, -0.3, s);
    const OrbitBranchPoint& lp = only(branch, "LP");
    CHECK(lp.parameter == Approx(-1.5 * 1.5 / 4).epsilon(1e-8));

    const OrbitCurveStart start{m.parameters, mu, beta, vector_of(lp.unknowns), lp.parameter};
    ContinuationSettings c;
    c.initial_step = 0.05;
    c.max_step = 0.2;
    c.max_points = 12;
    const auto points = both_ways(factory, OrbitBifurcation::Fold, start, {-2, 0}, {1.0, 2.0}, c);
    REQUIRE(points.size() >= 10);
    for (const OrbitCurvePoint& p : points) {
        INFO("beta = " << p.beta);
        CHECK(p.alpha == Approx(-p.beta * p.beta / 4).epsilon(1e-7));
        const double r2 = p.unknowns[0] * p.unknowns[0] + p.unknowns[1] * p.unknowns[1];
        CHECK(r2 == Approx(p.beta / 2).epsilon(1e-6));
        CHECK(p.period == Approx(2 * pi).epsilon(1e-8));
    }
}
