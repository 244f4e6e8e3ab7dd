// The phase plane against portraits known in closed form: marching squares on a circle, van der
// Pol (an unstable focus at the origin for 0 < mu < 2 and a limit cycle of amplitude about 2), a
// linear saddle (straight nullclines, manifolds along its eigenvectors, trajectories e^{lambda t} v)
// and FitzHugh-Nagumo (the cubic v-nullcline; one or three equilibria as the cubic's real roots).
#include "engine/analysis/phase_plane_csv.h"
#include "engine/analysis/phase_plane_defaults.h"
#include "engine/analysis/phase_plane_portrait.h"
#include "engine/analysis/phase_plane_trajectory.h"
#include "engine/study/study_json.h"
#include "phase_plane_support.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <sstream>

using namespace bif;
using namespace bif::analysis;
using phase_plane_test::resolve;
using phase_plane_test::study_json;

namespace {

std::shared_ptr<const study::ResolvedStudy> must_resolve(const std::string& json) {
    std::string why;
    auto r = resolve(json, &why);
    INFO(why);
    REQUIRE(r);
    return r;
}

std::size_t point_count(const std::vector<Polyline>& lines) {
    std::size_t n = 0;
    for (const auto& l : lines)
        n += l.size();
    return n;
}

// The real roots of v^3 + p v + q (three when 4p^3 + 27q^2 < 0), by the trigonometric method.
std::vector<double> cubic_roots(double p, double q) {
    const double d = 4 * p * p * p + 27 * q * q;
    if (d < 0) {
        const double r = 2 * std::sqrt(-p / 3);
        const double phi = std::acos(3 * q / (p * r));
        std::vector<double> roots;
        for (int k = 0; k < 3; ++k)
            roots.push_back(r * std::cos((phi - 2 * std::numbers::pi * k) / 3));
        std::sort(roots.begin(), roots.end());
        return roots;
    }
    const double s = std::sqrt(d / 108);
    return {std::cbrt(-q / 2 + s) + std::cbrt(-q / 2 - s)};
}

} // namespace

TEST_CASE("marching squares traces the unit circle as one closed polyline", "[engine][phase_plane]") {
    SampledGrid g{41, 41, {-2, 2, -2, 2}, {}};
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            g.values.push_back(g.x_at(i) * g.x_at(i) + g.y_at(j) * g.y_at(j) - 1);
    const auto lines = zero_contours(g);
    REQUIRE(lines.size() == 1);
    const Polyline& c = lines[0];
    CHECK(c.size() > 40);
    CHECK(c.front().x == c.back().x);
    CHECK(c.front().y == c.back().y);
    // linear interpolation of r^2 - 1 across a cell of h = 0.1 errs by at most h^2/4 in r^2
    for (const PlanePoint& p : c)
        CHECK(std::abs(std::hypot(p.x, p.y) - 1) < 0.1 * 0.1 / 4);
}

TEST_CASE("marching squares: saddle cells, open curves and non-finite cells", "[engine][phase_plane]") {
    // x y = 0.01: two hyperbola branches, which meet the saddle cells near the origin
    SampledGrid g{21, 21, {-1, 1, -1, 1}, {}};
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            g.values.push_back(g.x_at(i) * g.y_at(j) - 0.01);
    const auto lines = zero_contours(g);
    REQUIRE(lines.size() == 2);
    for (const auto& line : lines) {
        CHECK(line.front().x != line.back().x); // open: from border to border
        for (const PlanePoint& p : line)
            CHECK(p.x * p.y > 0); // each stays in its quadrant
    }
    // a NaN column cuts the vertical line x = 0.05 into two pieces
    SampledGrid v{21, 21, {-1, 1, -1, 1}, {}};
    for (int j = 0; j < v.ny; ++j)
        for (int i = 0; i < v.nx; ++i)
            v.values.push_back(j == 10 ? std::nan("") : v.x_at(i) - 0.05);
    CHECK(zero_contours(v).size() == 2);
    CHECK_THROWS_AS(zero_contours(SampledGrid{1, 3, {}, {0, 0, 0}}), std::invalid_argument);
}

TEST_CASE("van der Pol: an unstable focus at the origin and a limit cycle of amplitude 2",
          "[engine][phase_plane]") {
    const auto study =
        must_resolve(study_json(phase_plane_test::van_der_pol, "\"x_range\": [-3, 3], \"y_range\": [-4, 4]"));
    PlanarSystem system = planar_system(*study);
    PortraitSettings settings{{-3, 3, -4, 4}, 121, 15};
    SECTION("mu = 1: an unstable focus with eigenvalues mu/2 +- i sqrt(1 - mu^2/4)") {
        const PhasePortrait p = compute_portrait(system, settings);
        REQUIRE(p.equilibria.size() == 1);
        const Equilibrium& e = p.equilibria[0];
        CHECK(std::abs(e.at.x) < 1e-12);
        CHECK(std::abs(e.at.y) < 1e-12);
        CHECK(e.type == EquilibriumType::UnstableFocus);
        CHECK(e.eigenvalues[0].real() == Approx(0.5));
        CHECK(std::abs(e.eigenvalues[0].imag()) == Approx(std::sqrt(0.75)));
        CHECK(p.arrows.size() == 15u * 15u);
        // x' = y vanishes on y = 0
        for (const auto& line : p.nullclines[0])
            for (const PlanePoint& q : line)
                CHECK(std::abs(q.y) < 1e-12);
        // y' = 0 on y = x / (mu (1 - x^2)); check it away from the poles at x = +-1, where the grid
        // cannot follow it, through the distance |g| / |grad g| of g = (1 - x^2) y - x
        std::size_t checked = 0;
        for (const auto& line : p.nullclines[1])
            for (const PlanePoint& q : line) {
                if (std::abs(std::abs(q.x) - 1) < 0.3) continue;
                const double g = (1 - q.x * q.x) * q.y - q.x;
                const double grad = std::hypot(-2 * q.x * q.y - 1, 1 - q.x * q.x);
                CHECK(std::abs(g) / grad < 0.01);
                ++checked;
            }
        CHECK(checked > 50);
    }
    SECTION("mu = 3: the origin becomes an unstable node (tr^2 > 4 det)") {
        system.set_parameter(0, 3.0);
        const PhasePortrait p = compute_portrait(system, settings);
        REQUIRE(p.equilibria.size() == 1);
        CHECK(p.equilibria[0].type == EquilibriumType::UnstableNode);
        CHECK(p.equilibria[0].eigenvalues[0].real() == Approx((3 + std::sqrt(5.0)) / 2));
        CHECK(p.equilibria[0].eigenvalues[1].real() == Approx((3 - std::sqrt(5.0)) / 2));
    }
    SECTION("a trajectory from near the origin winds out onto the limit cycle; backward it returns") {
        PlanarTrajectorySettings ts;
        ts.duration = 60;
        ts.window = settings.window;
        const PlanarTrajectory t = integrate_trajectory(system, {0.1, 0.0}, ts);
        REQUIRE(t.points.size() == t.t.size());
        CHECK(t.t.front() == Approx(-60));
        CHECK(t.t.back() == Approx(60));
        CHECK(t.points[t.start_index].x == 0.1);
        double amplitude = 0;
        for (std::size_t k = 0; k < t.points.size(); ++k)
            if (t.t[k] > 40) amplitude = std::max(amplitude, std::abs(t.points[k].x));
        // the cycle's amplitude for mu = 1 is 2.0086 (e.g. Strogatz, Nonlinear Dynamics, 7.5)
        CHECK(amplitude == Approx(2.0086).margin(0.005));
        // backward in time the unstable focus attracts
        CHECK(std::hypot(t.points.front().x, t.points.front().y) < 1e-6);
        // times increase along the polyline
        for (std::size_t k = 1; k < t.t.size(); ++k)
            CHECK(t.t[k] > t.t[k - 1]);
    }
}

TEST_CASE("a linear saddle: straight nullclines, its eigenvectors and exact trajectories",
          "[engine][phase_plane]") {
    const auto study = must_resolve(study_json(phase_plane_test::linear_saddle));
    const PlanarSystem system = planar_system(*study);
    const PhasePortrait p = compute_portrait(system, {{-3, 3, -3, 3}, 40, 10});
    REQUIRE(p.nullclines[0].size() == 1);
    REQUIRE(p.nullclines[1].size() == 1);
    for (const PlanePoint& q : p.nullclines[0][0])
        CHECK(std::abs(q.x + 2 * q.y) < 1e-12); // linear interpolation is exact for linear f
    for (const PlanePoint& q : p.nullclines[1][0])
        CHECK(std::abs(2 * q.x + q.y) < 1e-12);
    // the line x + 2 y = 0 crosses the square [-3, 3]^2 from (3, -1.5) to (-3, 1.5)
    const auto& line = p.nullclines[0][0];
    CHECK(std::abs(line.front().x) == Approx(3));
    CHECK(std::abs(line.back().x) == Approx(3));
    REQUIRE(p.equilibria.size() == 1);
    const Equilibrium& e = p.equilibria[0];
    CHECK(e.type == EquilibriumType::Saddle);
    CHECK(e.eigenvalues[0].real() == Approx(3));
    CHECK(e.eigenvalues[1].real() == Approx(-1));
    CHECK(std::abs(e.eigenvectors[0].x * e.eigenvectors[0].y) == Approx(0.5)); // +-(1, 1)/sqrt 2
    CHECK(e.eigenvectors[0].x * e.eigenvectors[0].y > 0);
    CHECK(e.eigenvectors[1].x * e.eigenvectors[1].y == Approx(-0.5)); // +-(1, -1)/sqrt 2

    PlanarTrajectorySettings ts;
    ts.duration = 5;
    ts.window = {-3, 3, -3, 3};
    SECTION("on the stable manifold: x(t) = e^{-t} (1, -1)") {
        const PlanarTrajectory t = integrate_trajectory(system, {1, -1}, ts);
        for (std::size_t k = 0; k < t.points.size(); ++k) {
            const double r = std::exp(-t.t[k]);
            CHECK(std::abs(t.points[k].x - r) < 1e-6 * (1 + r));
            CHECK(std::abs(t.points[k].y + r) < 1e-6 * (1 + r));
        }
        CHECK(t.t.back() == Approx(5)); // forward it stays near the origin the whole time
        CHECK(t.t.front() > -5);        // backward it leaves for infinity (the bound stops it)
        CHECK(std::abs(t.points.front().x) > 29);
    }
    SECTION("on the unstable manifold: x(t) = e^{3t} (1, 1)") {
        const PlanarTrajectory t = integrate_trajectory(system, {0.5, 0.5}, ts);
        for (std::size_t k = 0; k < t.points.size(); ++k) {
            const double r = 0.5 * std::exp(3 * t.t[k]);
            CHECK(std::abs(t.points[k].x - r) < 1e-6 * (1 + r));
            CHECK(std::abs(t.points[k].y - r) < 1e-6 * (1 + r));
        }
    }
}

TEST_CASE("FitzHugh-Nagumo: the cubic v-nullcline and one or three equilibria", "[engine][phase_plane]") {
    const double I = GENERATE(0.0, 0.2, 0.5, -0.5);
    const auto study = must_resolve(study_json(phase_plane_test::fitzhugh_nagumo,
                                               "\"x_range\": [-3, 3], \"y_range\": [-3, 3]",
                                               "{\"i\": " + std::to_string(I) + "}"));
    const PlanarSystem system = planar_system(*study);
    const PhasePortrait p = compute_portrait(system, {{-3, 3, -3, 3}, 121, 0});
    CHECK(p.arrows.empty());
    // v' = 0 on w = v - v^3/3 + I: the grid (h = 0.05) carries it to O(h^2)
    REQUIRE(point_count(p.nullclines[0]) > 60);
    for (const auto& line : p.nullclines[0])
        for (const PlanePoint& q : line)
            CHECK(std::abs(q.y - (q.x - q.x * q.x * q.x / 3 + I)) < 0.05 * 0.05 * 3);
    // equilibria: v - v^3/3 + I = v/3, i.e. v^3 - 2 v - 3 I = 0, w = v/3
    const std::vector<double> roots = cubic_roots(-2, -3 * I);
    INFO("I = " << I);
    CHECK(roots.size() == (std::abs(I) < std::sqrt(32.0 / 243) ? 3u : 1u));
    REQUIRE(p.equilibria.size() == roots.size());
    for (std::size_t k = 0; k < roots.size(); ++k) {
        const Equilibrium& e = p.equilibria[k];
        CHECK(e.at.x == Approx(roots[k]).margin(1e-10));
        CHECK(e.at.y == Approx(roots[k] / 3).margin(1e-10));
        // the eigenvalues solve lambda^2 - tr lambda + det = 0 of J = [1 - v^2, -1; eps, -3 eps]
        const double a = 1 - roots[k] * roots[k], eps = 0.08;
        const double tr = a - 3 * eps, det = -3 * eps * a + eps;
        for (const auto& l : e.eigenvalues)
            CHECK(std::abs(l * l - tr * l + det) < 1e-12);
        CHECK((e.type == EquilibriumType::Saddle) == (det < 0));
    }
}

TEST_CASE("the phase plane's study block reads, writes back and is checked", "[engine][phase_plane][study]") {
    const std::string json = study_json(
        phase_plane_test::fitzhugh_nagumo,
        "\"x\": \"w\", \"y\": \"v\", \"x_range\": [-1, 2], \"y_range\": [-2.5, 2.5], \"grid\": 81, "
        "\"arrows\": 11, \"t_end\": 30, \"trajectories\": [[0.5, 1], [-1, 0]], "
        "\"slider\": {\"parameter\": \"i\", \"range\": [-1, 1]}");
    const auto read = study::read_study_json(json);
    REQUIRE(read.study);
    REQUIRE(!study::has_errors(read.problems));
    const auto again = study::read_study_json(study::write_study_json(*read.study));
    REQUIRE(again.study);
    const study::PhasePlaneSettings& s = again.study->phase_plane;
    CHECK(again.study->analysis == study::AnalysisKind::PhasePlane);
    CHECK(s.x == "w");
    CHECK(s.y == "v");
    CHECK(s.x_from == -1);
    CHECK(s.y_to == 2.5);
    CHECK(s.grid == 81);
    CHECK(s.arrows == 11);
    CHECK(s.t_end == 30);
    REQUIRE(s.starts.size() == 2);
    CHECK(s.starts[1].first == -1);
    CHECK(s.slider == "i");
    CHECK(s.slider_from == -1);
    const auto resolved = must_resolve(json);
    CHECK(resolved->phase_plane.x == 1);
    CHECK(resolved->phase_plane.y == 0);
    CHECK(resolved->phase_plane.slider == 0);

    std::string why;
    CHECK(!resolve(study_json(phase_plane_test::van_der_pol, "\"x\": \"y\", \"y\": \"y\""), &why));
    CHECK(why.find("two different states") != std::string::npos);
    CHECK(!resolve(study_json(phase_plane_test::van_der_pol, "\"x\": \"mu\""), &why));
    CHECK(why.find("is a parameter") != std::string::npos);
    CHECK(!resolve(study_json(phase_plane_test::van_der_pol, "\"x_range\": [1, -1]"), &why));
    CHECK(why.find("x_range") != std::string::npos);
    CHECK(!resolve(study_json("x(t+1)=r*x*(1-x)\ny(t+1)=x\npar r=3\ndone\n"), &why));
    CHECK(why.find("map") != std::string::npos);
}

TEST_CASE("the phase plane's CSV holds nullclines, trajectories and equilibria", "[engine][phase_plane]") {
    const auto study = must_resolve(study_json(phase_plane_test::linear_saddle));
    const PlanarSystem system = planar_system(*study);
    const PhasePortrait p = compute_portrait(system, {{-1, 1, -1, 1}, 11, 3});
    PlanarTrajectorySettings ts;
    ts.duration = 1;
    ts.window = p.window;
    const PlanarTrajectory t = integrate_trajectory(system, {0.1, -0.1}, ts);
    std::ostringstream out;
    write_phase_plane_csv(out, "x", "y", p, {t});
    const std::string csv = out.str();
    CHECK(csv.rfind("curve,index,t,x,y,note\n", 0) == 0);
    std::size_t rows = 0, equilibria = 0, trajectory = 0;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line); ++rows) {
        equilibria += line.rfind("equilibrium,", 0) == 0;
        trajectory += line.rfind("trajectory,", 0) == 0;
    }
    CHECK(rows == 1 + point_count(p.nullclines[0]) + point_count(p.nullclines[1]) + t.points.size() + 1);
    CHECK(equilibria == 1);
    CHECK(trajectory == t.points.size());
    CHECK(csv.find("saddle, eigenvalues 3 and -1") != std::string::npos);
}

TEST_CASE("a phase plane's defaults come from the model's XPPAUT plot options", "[engine][phase_plane]") {
    const auto with_options = must_resolve(
        study_json("x'=y\ny'=-k*x\nz'=0\npar k=2\n@ xp=y,yp=x,xlo=-2,xhi=2,ylo=-5,yhi=5\ndone\n"));
    const study::PhasePlaneSettings s = phase_plane_defaults(*with_options->model);
    CHECK(s.x == "y");
    CHECK(s.y == "x");
    CHECK(s.x_from == -2);
    CHECK(s.x_to == 2);
    CHECK(s.y_from == -5);
    CHECK(s.y_to == 5);
    CHECK(s.slider == "k");
    CHECK(s.slider_from == 0);
    CHECK(s.slider_to == 4);
    // without options: the first two states on [-3, 3]^2; xp naming a parameter is not an axis
    const auto plain = must_resolve(study_json("u'=v\nv'=-u\npar c=0\n@ xp=c\ndone\n"));
    const study::PhasePlaneSettings d = phase_plane_defaults(*plain->model);
    CHECK(d.x == "u");
    CHECK(d.y == "v");
    CHECK(d.x_from == -3);
    CHECK(d.slider_from == -1);
    CHECK(d.slider_to == 1);
}

TEST_CASE("states off the axes hold their fixed values, else their initial values", "[engine][phase_plane]") {
    // x' = y, y' = z - x, z' = 1: in the (x, y) plane the equilibrium sits at (z, 0), a centre
    const char* model = "x'=y\ny'=z-x\nz'=1\ninit z=0.5\ndone\n";
    const auto initial = must_resolve(study_json(model));
    auto e = compute_portrait(planar_system(*initial), {{-3, 3, -3, 3}, 31, 0}).equilibria;
    REQUIRE(e.size() == 1);
    CHECK(e[0].at.x == Approx(0.5));
    CHECK(e[0].type == EquilibriumType::Centre);
    const auto fixed = must_resolve(study_json(model, "\"fixed\": {\"z\": -1.25}"));
    e = compute_portrait(planar_system(*fixed), {{-3, 3, -3, 3}, 31, 0}).equilibria;
    REQUIRE(e.size() == 1);
    CHECK(e[0].at.x == Approx(-1.25));
    // the (y, z) plane: y' = z - x with x = 0 vanishes on z = 0; z' = 1 nowhere: no equilibrium
    const auto yz = must_resolve(study_json(model, "\"x\": \"y\", \"y\": \"z\""));
    const auto p = compute_portrait(planar_system(*yz), {{-3, 3, -3, 3}, 31, 0});
    CHECK(p.equilibria.empty());
    CHECK(p.nullclines[1].empty());
    REQUIRE(p.nullclines[0].size() == 1);
    for (const PlanePoint& q : p.nullclines[0][0])
        CHECK(std::abs(q.y) < 1e-12);
}
