// Bifscope's continuation against AUTO, as XPPAUT 6.11 runs it: the special points AUTO wrote for
// the same models over the same parameter intervals (tests/reference/auto: the .ode files, the
// study files that ask Bifscope for the same branches, AUTO's output and run_xppaut_auto.sh, which
// made it): the equilibria of FitzHugh-Nagumo (two folds, two Hopf points), of Rossler (a Hopf
// point) and the cycles born there (a period doubling), the cycles of the quintic Hopf normal form
// (a fold of cycles) and of two Hopf normal forms side by side (a torus point). Every special point
// AUTO reports is found, of the same type and in the same order along the branch, and Bifscope
// reports none that AUTO does not (the exceptions, at Hopf points, are explained where they are
// checked); where they differ, closed forms say which is right.
//
// The tolerances follow from AUTO's own (the header of its .p files: EPSL = EPSU = EPSS = 1e-4).
// - Regular points: AUTO's Newton stops when its correction is below EPSU (relative); Newton
//   converges quadratically, so the point is then good to about EPSU^2 = 1e-8.
// - Special points: AUTO locates the zero of a test function by secant steps and stops when the
//   next step, in its (weighted) arclength, is below EPSS (1 + sqrt|DS DSMAX|) (AUTO-07p's LCSPAE
//   and LCSPBV; the AUTO manual's EPSS). With DS DSMAX <= 0.05^2 and a component of AUTO's unit
//   tangent up to sqrt(NDIM) <= 2, a located point may be up to 2 (1.05 EPSS) <~ 4 EPSS from the
//   zero in each component: `located` below. Bifscope locates its points to about 1e-10.
// - At a fold the parameter is extremal along the branch: an arclength error e moves it by O(e^2),
//   hence (4 EPSS)^2 for fold parameters.
#include "auto_output.h"
#include "engine/continuation/equilibrium_study_run.h"
#include "engine/continuation/orbit_study_run.h"
#include "engine/study/equilibrium_study.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace bif;

namespace {

const std::string folder = std::string(BIFSCOPE_SOURCE_DIR) + "/tests/reference/auto/";

constexpr double epss = 1e-4;
constexpr double located = 4 * epss;
constexpr double fold_parameter = located * located;
constexpr double two_pi = 6.283185307179586;

study::ResolvedEquilibriumStudy load(const std::string& name) {
    study::EquilibriumResolveResult r = study::load_equilibrium_study_file(folder + name);
    std::string problems;
    for (const auto& p : r.problems)
        problems += p.format() + "\n";
    INFO(problems);
    REQUIRE(r.resolved);
    return *r.resolved;
}

// AUTO's special points of branch `branch` (every solution of its .q file with a special type), in
// the order of the branch.
std::vector<auto_output::Solution> auto_special_points(const std::string& q_file, int branch) {
    std::vector<auto_output::Solution> out;
    for (const auto& s : auto_output::read_solutions(folder + q_file))
        if (s.branch == branch && !auto_output::special_label(s.type).empty()) out.push_back(s);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.point < b.point; });
    return out;
}

// A setting from the header AUTO writes at the top of a .p file ("ISP=   1", "EPSS= 1.0000E-04").
double auto_setting(const std::string& p_file, const std::string& name) {
    std::ifstream in(folder + p_file);
    REQUIRE(in);
    std::string line;
    while (std::getline(in, line)) {
        const auto at = line.find(" " + name + "=");
        if (at != std::string::npos) return std::stod(line.substr(at + name.size() + 2));
    }
    FAIL("no " << name << " in " << p_file);
    return 0;
}

std::vector<const cont::EquilibriumBranchPoint*> special_points(const cont::EquilibriumBranch& b) {
    std::vector<const cont::EquilibriumBranchPoint*> out;
    for (const auto& p : b.points)
        if (!p.label.empty() && p.label != "EP") out.push_back(&p);
    return out;
}

double hopf_period(const cont::EquilibriumBranchPoint& p) {
    double omega = 0.0;
    for (Eigen::Index i = 0; i < p.eigenvalues.size(); ++i)
        if (std::abs(p.eigenvalues[i].real()) < 1e-6)
            omega = std::max(omega, std::abs(p.eigenvalues[i].imag()));
    return omega > 0 ? two_pi / omega : 0.0;
}

// |dT/ds| of the period 2 pi / omega of the pair nearest the imaginary axis, between the neighbours
// of branch point k: how far AUTO's period may be off for a point located `located` away.
double hopf_period_slope(const cont::EquilibriumBranch& b, std::size_t k) {
    REQUIRE(k > 0);
    REQUIRE(k + 1 < b.points.size());
    const auto& lo = b.points[k - 1];
    const auto& hi = b.points[k + 1];
    auto period = [](const cont::EquilibriumBranchPoint& p) {
        double omega = 0.0, distance = 1e300;
        for (Eigen::Index i = 0; i < p.eigenvalues.size(); ++i)
            if (p.eigenvalues[i].imag() > 0 && std::abs(p.eigenvalues[i].real()) < distance) {
                distance = std::abs(p.eigenvalues[i].real());
                omega = p.eigenvalues[i].imag();
            }
        return two_pi / omega;
    };
    return std::abs(period(hi) - period(lo)) / std::abs(hi.arclength - lo.arclength);
}

// Bifscope's equilibrium branch of `study` against AUTO's special points on branch 1 of `q_file`:
// the same labels in the same order, each within AUTO's location tolerance.
void compare_equilibrium_branch(const std::string& study_file, const std::string& q_file) {
    const study::ResolvedEquilibriumStudy study = load(study_file);
    const cont::EquilibriumStudyOutcome outcome = cont::run_equilibrium_study(study);
    REQUIRE(outcome.branches.size() == 1);
    const cont::EquilibriumBranch& branch = outcome.branches[0];
    // Both cover the study's interval: Bifscope ends there (EP), AUTO at its first point past it.
    REQUIRE(branch.points.back().label == "EP");
    CHECK(branch.points.back().parameter == Approx(study.study.to));
    const auto all = auto_output::read_solutions(folder + q_file);
    CHECK(all.back().type == 9);
    CHECK(all.back().parameter(1) > study.study.to);

    const auto ours = special_points(branch);
    const auto theirs = auto_special_points(q_file, 1);
    REQUIRE(ours.size() == theirs.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
        const cont::EquilibriumBranchPoint& p = *ours[i];
        const auto_output::Solution& a = theirs[i];
        INFO("special point " << i << ": Bifscope " << p.label << " at " << p.parameter << ", AUTO label "
                              << a.label << " " << auto_output::special_label(a.type) << " at "
                              << a.parameter(1));
        CHECK(p.label == auto_output::special_label(a.type));
        const double parameter_tolerance = p.label == "LP" ? fold_parameter : located;
        CHECK(std::abs(p.parameter - a.parameter(1)) < parameter_tolerance);
        REQUIRE(a.start().size() == p.state.size() + 1);
        for (std::size_t k = 0; k < p.state.size(); ++k)
            CHECK(std::abs(p.state[k] - a.start()[k + 1]) < located);
        if (p.label == "H") {
            // AUTO's PAR(11) at a Hopf point: 2 pi / omega at its located point.
            const std::size_t k = std::size_t(ours[i] - branch.points.data());
            const double slope = hopf_period_slope(branch, k);
            INFO("Bifscope's period " << hopf_period(p) << ", AUTO's " << a.period() << ", |dT/ds| "
                                      << slope);
            CHECK(std::abs(hopf_period(p) - a.period()) < located * slope + 1e-8);
        }
    }
}

// Bifscope's cycles of `orbit_study` (continued both ways from a cycle away from the Hopf point)
// against AUTO's cycles from the Hopf point (branch 2 of `q_file`), over the same interval.
//
// Bifscope's branch goes down to the Hopf point and through it: the amplitude r passes 0 and the
// branch retraces the same cycles (r and -r are one cycle, met at the other side of its phase). At
// the Hopf point, where the nontrivial multiplier is 1, it reports an LP (a(r) = a(-r) turns) and a
// BP: the cycles meet the equilibrium, which solves phi(T; x) = x for any T. Its zero is less sharp
// than the LP's (the equilibrium only nearly satisfies the Poincare-plane phase condition, whose
// normal, the flow at the last point, reverses as r passes 0; AUTO's integral condition it
// satisfies exactly): its parameter is within `located` here (2e-7 to 1e-4 from the Hopf point
// with these studies' steps), the LP's within 1e-8. AUTO's
// branch starts at its located Hopf point: where that is off the true one it passes through the
// true one too and labels it once (ISP = 2 tests cycles for branch points as well, but a point gets
// one label, its LP); where it is exact it starts there and labels nothing. Points within
// `located` of Bifscope's Hopf point (from `equilibrium_study`) are therefore compared apart; the
// others one to one, in order.
struct OrbitComparison {
    cont::OrbitStudyOutcome outcome;
    std::vector<const cont::OrbitBranchPoint*> ours, at_hopf;  // Bifscope's, from the Hopf point up
    std::vector<auto_output::Solution> theirs, theirs_at_hopf; // AUTO's
    double hopf = 0.0, hopf_period = 0.0;                      // Bifscope's equilibrium H
};

OrbitComparison compare_orbit_branch(const std::string& orbit_study, const std::string& equilibrium_study,
                                     const std::string& q_file) {
    OrbitComparison c;
    // The cycles are born at the first Hopf point along the equilibrium branch (AUTO's label 2,
    // which run_xppaut_auto.sh grabs).
    const cont::EquilibriumStudyOutcome equilibria = cont::run_equilibrium_study(load(equilibrium_study));
    const auto h = special_points(equilibria.branches.at(0));
    REQUIRE_FALSE(h.empty());
    REQUIRE(h[0]->label == "H");
    c.hopf = h[0]->parameter;
    c.hopf_period = hopf_period(*h[0]);

    const study::ResolvedEquilibriumStudy study = load(orbit_study);
    c.outcome = cont::run_orbit_study(study);
    const auto& points = c.outcome.branch.points;
    auto at_hopf = [&](double parameter) { return std::abs(parameter - c.hopf) < located; };

    // From the start (arclength 0) down to the first special point at the Hopf point: the LP.
    std::size_t start = 0;
    while (start < points.size() && points[start].arclength != 0.0)
        ++start;
    REQUIRE(start < points.size());
    std::size_t lp = start;
    while (lp > 0 && (points[lp].label.empty() || !at_hopf(points[lp].parameter)))
        --lp;
    REQUIRE(points[lp].label == "LP");
    REQUIRE(lp > 0);
    std::size_t bp = lp - 1;
    while (bp > 0 && points[bp].label.empty())
        --bp;
    CHECK(points[bp].label == "BP");
    CHECK(at_hopf(points[bp].parameter));
    c.at_hopf = {&points[lp], &points[bp]};
    // The LP is where a and T are extremal in r: to the square of AUTO's location tolerance.
    CHECK(std::abs(points[lp].parameter - c.hopf) < fold_parameter);
    CHECK(std::abs(points[lp].period - c.hopf_period) < fold_parameter);
    CHECK(points[lp].stability.multipliers.at(0).value.real() == Approx(1.0).margin(1e-6));

    for (const auto& a : auto_special_points(q_file, 2))
        (at_hopf(a.parameter(1)) ? c.theirs_at_hopf : c.theirs).push_back(a);
    CHECK(auto_setting(q_file.substr(0, q_file.size() - 1) + "p", "ISP") == 2);
    for (const auto& a : c.theirs_at_hopf) {
        CHECK(a.type == 5); // AUTO's label there: an LP of cycles
        CHECK(std::abs(a.parameter(1) - c.hopf) < fold_parameter);
        CHECK(std::abs(a.period() - c.hopf_period) < fold_parameter);
    }

    // Above the Hopf point: Bifscope's special points are AUTO's, in order.
    for (std::size_t k = lp + 1; k < points.size(); ++k)
        if (!points[k].label.empty() && points[k].label != "EP") c.ours.push_back(&points[k]);
    REQUIRE(c.ours.size() == c.theirs.size());
    for (std::size_t i = 0; i < c.ours.size(); ++i) {
        const cont::OrbitBranchPoint& p = *c.ours[i];
        const auto_output::Solution& a = c.theirs[i];
        INFO("Bifscope " << p.label << " at " << p.parameter << ", AUTO "
                         << auto_output::special_label(a.type) << " at " << a.parameter(1));
        CHECK(p.label == auto_output::special_label(a.type));
        CHECK(std::abs(p.parameter - a.parameter(1)) < (p.label == "LP" ? fold_parameter : located));
        CHECK(std::abs(p.period - a.period()) < located);
    }
    // Both end at the interval's end: Bifscope there (EP), AUTO at its first point past it.
    REQUIRE(points.back().label == "EP");
    CHECK(points.back().parameter == Approx(study.study.to));
    const auto all = auto_output::read_solutions(folder + q_file);
    const auto end = std::max_element(all.begin(), all.end(), [](const auto& x, const auto& y) {
        return (x.branch == 2 ? x.point : -1) < (y.branch == 2 ? y.point : -1);
    });
    CHECK(end->type == 9);
    CHECK(end->parameter(1) > study.study.to);

    // Below the BP the branch retraces the cycles above the Hopf point: nothing new there.
    for (std::size_t k = 0; k < bp; ++k) {
        if (points[k].label.empty()) continue;
        INFO("the retraced part's " << points[k].label << " at " << points[k].parameter);
        bool again = false;
        for (std::size_t j = lp + 1; j < points.size(); ++j)
            again = again || (points[j].label == points[k].label &&
                              std::abs(points[j].parameter - points[k].parameter) < 1e-8 &&
                              std::abs(points[j].period - points[k].period) < 1e-8);
        CHECK(again);
    }
    return c;
}

// The start point of the orbit study `orbit_study` moved to (parameter, AUTO's solution at t = 0,
// its period) and corrected by Bifscope's Newton at that parameter value.
cont::OrbitBranchPoint bifscope_orbit_at(const std::string& orbit_study, const auto_output::Solution& a) {
    const study::ResolvedEquilibriumStudy resolved = load(orbit_study);
    study::EquilibriumStudy s = resolved.study;
    s.parameters = {{s.parameter, a.parameter(1)}};
    const auto& states = resolved.model->states;
    REQUIRE(a.start().size() == states.size() + 1);
    s.start.clear();
    for (std::size_t k = 0; k < states.size(); ++k)
        s.start.emplace_back(states[k].name, a.start()[k + 1]);
    s.orbit.period = a.period();
    s.orbit.transient_periods = 0;
    s.direction = study::ContinuationDirection::Up;
    s.max_points = 2;
    const study::EquilibriumResolveResult r = study::resolve_equilibrium_study(s, folder);
    REQUIRE(r.resolved);
    const cont::OrbitStudyOutcome there = cont::run_orbit_study(*r.resolved);
    REQUIRE(there.branch.points.at(0).parameter == a.parameter(1));
    return there.branch.points.at(0);
}

} // namespace

TEST_CASE("AUTO's output files are read as AUTO wrote them", "[continuation][auto]") {
    const auto fhn = auto_output::read_solutions(folder + "fhn_steady.q");
    REQUIRE(fhn.size() == 6);
    // The start, as the .ode file gives it: x = -2, y = -0.65 at I = -79/60.
    CHECK(fhn[0].type == 9);
    CHECK(fhn[0].start() == std::vector<double>{0.0, -2.0, -0.65});
    CHECK(fhn[0].parameter(1) == Approx(-79.0 / 60.0).margin(1e-10));
    CHECK(fhn[0].parameters.size() == 20);
    const auto orbits = auto_special_points("rossler_periodic.q", 2);
    REQUIRE(orbits.size() == 2);
    CHECK(orbits[1].rows.size() == 201); // NTST * NCOL + 1 mesh points
    CHECK(orbits[1].rows.back()[0] == 1.0);
    CHECK(auto_setting("rossler_periodic.p", "NTST") == 50);
    // The tolerances this test derives its own from.
    for (const char* p : {"fhn_steady.p", "rossler_periodic.p", "bautin_periodic.p", "torus_periodic.p"}) {
        INFO(p);
        CHECK(auto_setting(p, "EPSS") == epss);
        CHECK(auto_setting(p, "EPSU") == epss);
        CHECK(auto_setting(p, "EPSL(1)") == epss);
    }
    const auto mu = auto_output::read_spectrum(folder + "rossler_periodic.d", 2, orbits[1].point, 3);
    CHECK(mu[0] == std::complex<double>(1.0, 0.0)); // the trivial multiplier, first in AUTO's order
    CHECK_THROWS(auto_output::read_solutions(folder + "no_such_file.q"));
}

TEST_CASE("FitzHugh-Nagumo: AUTO's folds and Hopf points, and the closed forms", "[continuation][auto]") {
    compare_equilibrium_branch("fhn_continuation.json", "fhn_steady.q");
    // Which is right where they differ: on the branch y = (x + a)/b, I = y - x + x^3/3; folds where
    // dI/dx = 0, x^2 = 1 - 1/b; Hopf points where the trace vanishes, x^2 = 1 - eps b, with
    // omega^2 = det J = eps (1 - b (1 - x^2)) = eps (1 - eps b^2).
    const double a = 0.7, b = 2.0, eps = 0.1;
    const double x_fold = std::sqrt(1 - 1 / b), x_hopf = std::sqrt(1 - eps * b);
    auto current = [&](double x) { return (x + a) / b - x + x * x * x / 3; };
    const std::vector<std::pair<std::string, double>> exact = {
        {"H", -x_hopf}, {"LP", -x_fold}, {"LP", x_fold}, {"H", x_hopf}};
    const double period = two_pi / std::sqrt(eps * (1 - eps * b * b));
    const cont::EquilibriumStudyOutcome outcome = cont::run_equilibrium_study(load("fhn_continuation.json"));
    const auto ours = special_points(outcome.branches.at(0));
    const auto theirs = auto_special_points("fhn_steady.q", 1);
    REQUIRE(ours.size() == exact.size());
    REQUIRE(theirs.size() == exact.size());
    for (std::size_t i = 0; i < exact.size(); ++i) {
        INFO(exact[i].first << " at x = " << exact[i].second);
        CHECK(ours[i]->label == exact[i].first);
        CHECK(ours[i]->state[0] == Approx(exact[i].second).margin(1e-9));
        CHECK(ours[i]->parameter == Approx(current(exact[i].second)).margin(1e-10));
        CHECK(std::abs(theirs[i].start()[1] - exact[i].second) < located);
        // AUTO's points lie on the branch to its Newton tolerance, wherever along it they are.
        CHECK(theirs[i].parameter(1) == Approx(current(theirs[i].start()[1])).margin(1e-8));
        if (exact[i].first == "H") {
            CHECK(hopf_period(*ours[i]) == Approx(period).epsilon(1e-10));
            CHECK(ours[i]->first_lyapunov > 0); // subcritical: no stable cycle is born
        }
    }
}

TEST_CASE("Rossler's equilibrium: AUTO's Hopf point", "[continuation][auto]") {
    compare_equilibrium_branch("rossler_continuation.json", "rossler_steady.q");
}

TEST_CASE("the quintic Hopf normal form's cycles: AUTO's fold of cycles, and the closed forms",
          "[continuation][auto]") {
    compare_equilibrium_branch("bautin_continuation.json", "bautin_steady.q");
    const OrbitComparison c = compare_orbit_branch("bautin_orbit_continuation.json",
                                                   "bautin_continuation.json", "bautin_periodic.q");
    // AUTO started its cycles at its Hopf point mu = -3e-9: it labels nothing there.
    CHECK(c.theirs_at_hopf.empty());
    REQUIRE(c.ours.size() == 1);
    // Which is right where they differ: the fold of cycles at mu = -1/4, r^2 = 1/2, period 2 pi, the
    // nontrivial multiplier exp(2 pi (mu + 3 r^2 - 5 r^4)) along the branch.
    const cont::OrbitBranchPoint& fold = *c.ours[0];
    auto r2 = [](const cont::OrbitBranchPoint& p) {
        return p.unknowns[0] * p.unknowns[0] + p.unknowns[1] * p.unknowns[1];
    };
    CHECK(fold.parameter == Approx(-0.25).margin(1e-9));
    CHECK(r2(fold) == Approx(0.5).margin(1e-6));
    const auto_output::Solution& theirs = c.theirs[0];
    const double their_r2 = theirs.start()[1] * theirs.start()[1] + theirs.start()[2] * theirs.start()[2];
    CHECK(std::abs(std::sqrt(their_r2) - std::sqrt(0.5)) < located);
    CHECK(theirs.parameter(1) == Approx(-0.25).margin(fold_parameter));
    for (const auto& p : c.outcome.branch.points) {
        INFO("mu = " << p.parameter << ", r^2 = " << r2(p));
        CHECK(p.period == Approx(two_pi).epsilon(1e-9));
        const double r = r2(p);
        if (r > 1e-4) // away from the Hopf point, where the cycle is the equilibrium
            CHECK(p.stability.multipliers.at(0).value.real() ==
                  Approx(std::exp(two_pi * (p.parameter + 3 * r - 5 * r * r))).epsilon(1e-7));
    }
    // AUTO's multiplier at its fold is the closed form's at AUTO's own point, to its 5 digits.
    const auto mu = auto_output::read_spectrum(folder + "bautin_periodic.d", 2, theirs.point, 2);
    const double nontrivial = std::abs(mu[0] - 1.0) > std::abs(mu[1] - 1.0) ? mu[0].real() : mu[1].real();
    CHECK(nontrivial ==
          Approx(std::exp(two_pi * (theirs.parameter(1) + 3 * their_r2 - 5 * their_r2 * their_r2)))
              .margin(1e-4));
}

TEST_CASE("Rossler's cycle: AUTO's period doubling, and its fold at the Hopf point", "[continuation][auto]") {
    const OrbitComparison c = compare_orbit_branch("rossler_orbit_continuation.json",
                                                   "rossler_continuation.json", "rossler_periodic.q");
    // AUTO's Hopf point was 3e-6 off (a = 0.12497054): its cycles pass the true one, an LP.
    CHECK(c.theirs_at_hopf.size() == 1);
    CHECK(c.outcome.branch.points.at(0).parameter == Approx(0.5)); // the retraced part's end
    REQUIRE(c.theirs.size() == 1);
    const auto_output::Solution& pd = c.theirs[0];
    REQUIRE(pd.type == 7);

    // AUTO's period-doubling orbit itself, at AUTO's parameter value: Bifscope's Newton from AUTO's
    // point at t = 0 stays there (the same orbit, to AUTO's Newton tolerance EPSU^2), with AUTO's
    // period, and the multiplier that crosses -1 is AUTO's to the 5 digits of its .d file (AUTO
    // stopped locating where it was -0.99987: its PD test was still 1.3e-4 from zero).
    const cont::OrbitBranchPoint orbit = bifscope_orbit_at("rossler_orbit_continuation.json", pd);
    for (std::size_t k = 0; k < 3; ++k)
        CHECK(std::abs(orbit.unknowns[k] - pd.start()[k + 1]) < 1e-7);
    CHECK(std::abs(orbit.period - pd.period()) < 1e-7);
    const auto mu = auto_output::read_spectrum(folder + "rossler_periodic.d", 2, pd.point, 3);
    // AUTO lists the trivial multiplier 1 among its three; Bifscope leaves it out.
    REQUIRE(orbit.stability.multipliers.size() == 2);
    std::complex<double> critical = mu[0];
    for (const auto& m : mu)
        if (std::abs(m + 1.0) < std::abs(critical + 1.0)) critical = m;
    CHECK(std::abs(orbit.stability.multipliers[0].value - critical) < 1e-4);
}

TEST_CASE("two Hopf normal forms side by side: AUTO's torus point, and the closed forms",
          "[continuation][auto]") {
    compare_equilibrium_branch("torus_continuation.json", "torus_steady.q"); // Hopf points at 0 and 1/2
    const OrbitComparison c =
        compare_orbit_branch("torus_orbit_continuation.json", "torus_continuation.json", "torus_periodic.q");
    CHECK(c.theirs_at_hopf.empty()); // AUTO's Hopf point was exact (mu = -3e-9)
    REQUIRE(c.ours.size() == 1);
    // Which is right where they differ: the cycle's multipliers are exp(2 pi (mu - 1/2 +- i w)) (and
    // the radial exp(-4 pi mu)); they cross the unit circle at mu = 1/2 at the angle 2 pi w.
    const double w = std::sqrt(2.0);
    auto transverse = [&](double mu) { return std::exp(two_pi * std::complex<double>(mu - 0.5, w)); };
    const cont::OrbitBranchPoint& ns = *c.ours[0];
    CHECK(ns.label == "NS");
    CHECK(ns.parameter == Approx(0.5).margin(1e-8));
    REQUIRE(ns.stability.multipliers.size() == 3);
    // The pair in either order (a complex pair's members sort alike by modulus).
    const std::complex<double> m0 = ns.stability.multipliers[0].value, m1 = ns.stability.multipliers[1].value;
    const std::complex<double> upper = m0.imag() > 0 ? m0 : m1, lower = m0.imag() > 0 ? m1 : m0;
    CHECK(std::abs(upper - transverse(0.5)) < 1e-8);
    CHECK(std::abs(lower - std::conj(transverse(0.5))) < 1e-8);
    const auto_output::Solution& tr = c.theirs[0];
    CHECK(std::abs(tr.parameter(1) - 0.5) < located);

    // AUTO's torus point's cycle at AUTO's parameter: Bifscope's Newton keeps it, and the pair on
    // the unit circle is AUTO's to the 5 digits of its .d file, and the closed form's there.
    const cont::OrbitBranchPoint orbit = bifscope_orbit_at("torus_orbit_continuation.json", tr);
    for (std::size_t k = 0; k < 4; ++k)
        CHECK(std::abs(orbit.unknowns[k] - tr.start()[k + 1]) < 1e-7);
    CHECK(std::abs(orbit.period - tr.period()) < 1e-7);
    const auto mu = auto_output::read_spectrum(folder + "torus_periodic.d", 2, tr.point, 4);
    int matched = 0;
    for (const auto& m : mu) {
        if (std::abs(m.imag()) < 1e-3) continue; // the trivial and the radial multipliers
        const std::complex<double> exact =
            m.imag() > 0 ? transverse(tr.parameter(1)) : std::conj(transverse(tr.parameter(1)));
        CHECK(std::abs(m - exact) < 1e-4);
        bool ours = false;
        for (const auto& q : orbit.stability.multipliers)
            ours = ours || std::abs(q.value - m) < 1e-4;
        CHECK(ours);
        ++matched;
    }
    CHECK(matched == 2);
}
