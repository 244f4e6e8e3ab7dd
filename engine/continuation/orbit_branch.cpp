#include "engine/continuation/orbit_branch.h"

#include "engine/continuation/branch_switching.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace bif::cont {

bool OrbitBranchProblem::residual(const Vector& x, Vector& f) const {
    const int n = orbit_.unknowns();
    std::string why;
    return orbit_.residual(x.head(n), x[n], f, why) && f.allFinite();
}

bool OrbitBranchProblem::jacobian(const Vector& x, Matrix& j) const {
    const int n = orbit_.unknowns();
    OrbitEvaluation e;
    std::string why;
    if (!orbit_.evaluate(x.head(n), x[n], true, e, why)) return false;
    j.resize(n, n + 1);
    j.leftCols(n) = e.jacobian;
    j.col(n) = e.parameter_derivative;
    cached_x_ = x;
    cached_segments_ = std::move(e.segments);
    return j.allFinite();
}

std::string OrbitBranchProblem::test_function_label(int k) const {
    return k == 0 ? "PD" : "NS";
}

OrbitStability OrbitBranchProblem::stability_at(const Vector& x) const {
    for (auto it = tested_.rbegin(); it != tested_.rend(); ++it)
        if (it->first == x) return it->second;
    if (cached_x_.size() == x.size() && cached_x_ == x)
        return orbit_stability(cached_segments_, orbit_.has_trivial_multiplier());
    const int n = orbit_.unknowns();
    OrbitEvaluation e;
    std::string why;
    if (!orbit_.evaluate(x.head(n), x[n], false, e, why)) return {};
    return orbit_stability(e.segments, orbit_.has_trivial_multiplier());
}

void OrbitBranchProblem::test_functions(const Vector& x, const Matrix&, const Vector&, Vector& values) const {
    const OrbitStability s = stability_at(x);
    tested_.emplace_back(x, s);
    values.resize(2);
    values << s.period_doubling, s.neimark_sacker;
}

bool OrbitBranchProblem::accept_special_point(int k, const Vector& x, const Matrix&, const Vector&) const {
    return k != 1 || is_neimark_sacker(stability_at(x));
}

namespace {

OrbitBranch orbit_branch_of(const OrbitProblem& orbit, const OrbitBranchProblem& problem,
                            const Branch& branch) {
    const int n = orbit.unknowns();
    OrbitBranch out;
    out.stop = branch.stop;
    out.message = branch.message;
    for (const ContinuationPoint& p : branch.points) {
        OrbitBranchPoint q;
        q.parameter = p.x[n];
        q.unknowns.assign(p.x.data(), p.x.data() + n);
        q.period = orbit.period(p.x.head(n), q.parameter);
        q.stability = problem.stability_at(p.x);
        q.label = p.label;
        q.arclength = p.arclength;
        out.points.push_back(std::move(q));
    }
    return out;
}

} // namespace

OrbitBranch continue_orbit(const OrbitProblem& orbit, const Vector& u, double lambda,
                           const ContinuationSettings& settings) {
    const OrbitBranchProblem problem(orbit);
    const int n = orbit.unknowns();
    Vector start(n + 1);
    start << u, lambda;
    ContinuationSettings s = settings;
    s.parameter = n;
    return orbit_branch_of(orbit, problem, continue_branch(problem, start, s));
}

OrbitBranch continue_doubled_orbit(const OrbitProblem& doubled, const Vector& u, double lambda,
                                   const ContinuationSettings& settings, int side) {
    const OrbitBranchProblem problem(doubled);
    const int n = doubled.unknowns();
    if (u.size() != n) throw std::invalid_argument("the doubling point does not fit the doubled orbit");
    Vector start(n + 1);
    start << u, lambda;
    // At the doubling the doubled orbit has the multiplier (-1)^2 = 1. Its Jacobian's rank is no
    // test here: dG/du and dG/dlambda both vanish there to first order, and the location's error
    // is scaled by dG/dlambda, which grows with each level of a cascade.
    const OrbitStability at = problem.stability_at(start);
    const bool has_one =
        std::any_of(at.multipliers.begin(), at.multipliers.end(),
                    [](const FloquetMultiplier& m) { return std::abs(m.value - 1.0) < 1e-4; });
    Vector direction;
    if (!has_one || !fixed_component_switch_direction(problem, start, n, direction,
                                                      std::numeric_limits<double>::infinity()))
        throw std::invalid_argument("no period doubling at " + std::to_string(lambda) +
                                    ": the doubled orbit has no multiplier 1 there");
    ContinuationSettings s = settings;
    s.parameter = n;
    return orbit_branch_of(doubled, problem,
                           continue_branch_from(problem, start, side < 0 ? -direction : direction, "PD", s));
}

} // namespace bif::cont
