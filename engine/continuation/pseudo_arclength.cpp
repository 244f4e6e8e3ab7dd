#include "engine/continuation/pseudo_arclength.h"

#include "engine/continuation/branch_tests.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace bif::cont {

namespace {

// A point of the branch reached from `anchor` (with unit tangent `anchor_tangent`) at the
// pseudo-arclength offset h: F(x) = 0, anchor_tangent . (x - anchor.x) = h.
struct Step {
    Vector x;
    Matrix j;
    Vector tangent;
    int iterations = 0;
};

std::optional<Step> step_from(const ContinuationProblem& problem, const ContinuationPoint& anchor, double h,
                              const NewtonSettings& newton) {
    Step s;
    s.x = anchor.x + h * anchor.tangent;
    const NewtonOutcome outcome =
        correct_on_hyperplane(problem, s.x, anchor.tangent, anchor.x, h, newton, s.j);
    if (!outcome.converged || !unit_tangent(s.j, anchor.tangent, s.tangent)) return std::nullopt;
    s.iterations = outcome.iterations;
    return s;
}

struct Located {
    double h = 0.0;
    Step step;
};

// The zero of test k between the offsets 0 (value g0) and h1 (value g1, of opposite sign), by the
// Illinois variant of regula falsi on the offset; every trial point is corrected onto the branch.
std::optional<Located> locate_zero(const ContinuationProblem& problem, const detail::BranchTests& tests,
                                   int k, const ContinuationPoint& anchor, double g0, double h1, double g1,
                                   const ContinuationSettings& settings) {
    double a = 0.0, ga = g0, b = h1, gb = g1;
    std::optional<Located> best;
    int side = 0;
    for (int it = 0; it < settings.max_location_iterations; ++it) {
        double h = b - gb * (b - a) / (gb - ga);
        if (!(h > std::min(a, b) && h < std::max(a, b))) h = 0.5 * (a + b);
        std::optional<Step> s = step_from(problem, anchor, h, settings.newton);
        if (!s) return best;
        const double g = tests.evaluate(s->x, s->j, s->tangent)[k];
        best = Located{h, std::move(*s)};
        if (g == 0.0 || std::abs(b - a) <= settings.location_tolerance * (1.0 + std::abs(h1))) return best;
        if ((g < 0) == (gb < 0)) {
            b = h;
            gb = g;
            if (side == -1) ga *= 0.5; // Illinois: halve the stale end's value
            side = -1;
        } else {
            a = h;
            ga = g;
            if (side == 1) gb *= 0.5;
            side = 1;
        }
    }
    return best;
}

class BranchTracer {
  public:
    BranchTracer(const ContinuationProblem& problem, const ContinuationSettings& settings, int parameter)
        : problem_(problem), settings_(settings), parameter_(parameter),
          tests_(problem, settings, parameter) {}

    Branch run(const Vector& start);
    Branch run_from(const Vector& start, const Vector& direction, const std::string& label);

  private:
    bool start_point(const Vector& start);
    bool given_start(const Vector& start, const Vector& direction, const std::string& label);
    void trace(); // from the first point on
    // Adds the special points between the last point and `next` (offset h); true when one of them
    // is where the branch leaves the box (the branch ends there).
    bool add_special_points(const Step& next, double h, const Vector& next_values);
    bool outside_box(const Vector& x) const;
    void stop(StopReason reason, std::string message) {
        branch_.stop = reason;
        branch_.message = std::move(message);
    }

    const ContinuationProblem& problem_;
    const ContinuationSettings& settings_;
    int parameter_;
    detail::BranchTests tests_;
    Branch branch_;
    Vector values_; // the tests at the last regular point
};

bool BranchTracer::outside_box(const Vector& x) const {
    return std::any_of(settings_.box.begin(), settings_.box.end(),
                       [&](const Bound& b) { return x[b.component] < b.min || x[b.component] > b.max; });
}

bool BranchTracer::start_point(const Vector& start) {
    const Vector axis = Vector::Unit(start.size(), parameter_) * (settings_.direction < 0 ? -1.0 : 1.0);
    ContinuationPoint p;
    p.x = start;
    Matrix j;
    const NewtonOutcome outcome = correct_on_hyperplane(problem_, p.x, axis, start, 0.0, settings_.newton, j);
    if (!outcome.converged || !unit_tangent(j, axis, p.tangent)) {
        stop(StopReason::StartNotConverged, "Newton's method did not converge from the start point at its "
                                            "parameter value (or the branch has no unique tangent there)");
        return false;
    }
    p.newton_iterations = outcome.iterations;
    if (outside_box(p.x)) {
        stop(StopReason::LeftBox, "the start point lies outside the continuation box");
        return false;
    }
    values_ = tests_.evaluate(p.x, j, p.tangent);
    problem_.point_accepted(p.x);
    branch_.points.push_back(std::move(p));
    return true;
}

bool BranchTracer::given_start(const Vector& start, const Vector& direction, const std::string& label) {
    ContinuationPoint p;
    p.x = start;
    p.tangent = direction.normalized();
    p.label = label;
    Matrix j;
    Vector f;
    if (!problem_.residual(start, f) || !problem_.jacobian(start, j) || !p.tangent.allFinite()) {
        stop(StopReason::StartNotConverged, "the problem cannot be evaluated at the start point");
        return false;
    }
    if (outside_box(p.x)) {
        stop(StopReason::LeftBox, "the start point lies outside the continuation box");
        return false;
    }
    values_ = tests_.evaluate(p.x, j, p.tangent);
    for (int k = 0; k < tests_.size(); ++k)
        if (tests_.kind(k) != detail::BranchTests::Kind::BoxEdge)
            values_[k] = std::numeric_limits<double>::quiet_NaN();
    problem_.point_accepted(p.x);
    branch_.points.push_back(std::move(p));
    return true;
}

bool BranchTracer::add_special_points(const Step& next, double h, const Vector& next_values) {
    std::vector<std::pair<Located, int>> found;
    for (int k = 0; k < tests_.size(); ++k) {
        const double g0 = values_[k], g1 = next_values[k];
        if (!std::isfinite(g0) || !std::isfinite(g1) || !((g0 < 0 && g1 > 0) || (g0 > 0 && g1 < 0))) continue;
        std::optional<Located> z =
            locate_zero(problem_, tests_, k, branch_.points.back(), g0, h, g1, settings_);
        if (!z) z = Located{h, next}; // unlocatable: reported at the point after the change
        if (tests_.kind(k) == detail::BranchTests::Kind::Problem &&
            !problem_.accept_special_point(tests_.problem_index(k), z->step.x, z->step.j, z->step.tangent))
            continue;
        found.emplace_back(std::move(*z), k);
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first.h < b.first.h; });
    const double s0 = branch_.points.back().arclength;
    for (auto& [z, k] : found) {
        ContinuationPoint p;
        p.x = z.step.x;
        p.tangent = z.step.tangent;
        p.arclength = s0 + z.h;
        p.newton_iterations = z.step.iterations;
        p.label = tests_.label(k);
        branch_.points.push_back(std::move(p));
        if (tests_.kind(k) == detail::BranchTests::Kind::BoxEdge) return true;
        if (int(branch_.points.size()) >= settings_.max_points) return false;
    }
    return false;
}

Branch BranchTracer::run(const Vector& start) {
    if (start_point(start)) trace();
    return std::move(branch_);
}

Branch BranchTracer::run_from(const Vector& start, const Vector& direction, const std::string& label) {
    if (given_start(start, direction, label)) trace();
    return std::move(branch_);
}

void BranchTracer::trace() {
    double ds = std::clamp(settings_.initial_step, settings_.min_step, settings_.max_step);
    while (int(branch_.points.size()) < settings_.max_points) {
        if (settings_.cancel && settings_.cancel->load()) {
            stop(StopReason::Cancelled, "cancelled");
            return;
        }
        const ContinuationPoint& last = branch_.points.back();
        const double last_arclength = last.arclength;
        std::optional<Step> next = step_from(problem_, last, ds, settings_.newton);
        if (!next || next->tangent.dot(last.tangent) < settings_.min_tangent_cosine) {
            ds *= settings_.step_shrink;
            if (ds < settings_.min_step) {
                stop(StopReason::StepTooSmall,
                     "the step fell below the minimum step: the corrector no longer "
                     "converges (a singular point, or the problem's domain ends)");
                return;
            }
            continue;
        }
        const Vector next_values = tests_.evaluate(next->x, next->j, next->tangent);
        if (add_special_points(*next, ds, next_values)) {
            stop(StopReason::LeftBox, "the branch left the continuation box");
            return;
        }
        if (int(branch_.points.size()) >= settings_.max_points) break;
        ContinuationPoint p;
        p.x = std::move(next->x);
        p.tangent = std::move(next->tangent);
        p.arclength = last_arclength + ds;
        p.newton_iterations = next->iterations;
        const int iterations = p.newton_iterations;
        problem_.point_accepted(p.x);
        branch_.points.push_back(std::move(p));
        values_ = next_values;
        if (iterations <= settings_.easy_iterations)
            ds = std::min(ds * settings_.step_growth, settings_.max_step);
    }
    stop(StopReason::MaxPoints, "the branch reached its maximum number of points");
}

int parameter_of(const ContinuationProblem& problem, const ContinuationSettings& settings) {
    const int unknowns = problem.equation_count() + 1;
    return settings.parameter < 0 ? unknowns - 1 : settings.parameter;
}

void check(const ContinuationProblem& problem, const Vector& start, const ContinuationSettings& settings) {
    const int unknowns = problem.equation_count() + 1;
    if (start.size() != unknowns)
        throw std::invalid_argument("continuation: the start point has " + std::to_string(start.size()) +
                                    " components, the problem " + std::to_string(unknowns) + " unknowns");
    if (parameter_of(problem, settings) >= unknowns)
        throw std::invalid_argument("continuation: the parameter index is out of range");
    for (const Bound& b : settings.box)
        if (b.component < 0 || b.component >= unknowns || !(b.min <= b.max))
            throw std::invalid_argument("continuation: a box bound names no component or has min > max");
    if (!(settings.min_step > 0.0) || !(settings.max_step >= settings.min_step) || settings.max_points < 1)
        throw std::invalid_argument("continuation: needs 0 < min_step <= max_step and max_points >= 1");
}

} // namespace

Branch continue_branch(const ContinuationProblem& problem, const Vector& start,
                       const ContinuationSettings& settings) {
    check(problem, start, settings);
    return BranchTracer(problem, settings, parameter_of(problem, settings)).run(start);
}

Branch continue_branch_from(const ContinuationProblem& problem, const Vector& start, const Vector& direction,
                            const std::string& start_label, const ContinuationSettings& settings) {
    if (direction.size() != start.size() || !(direction.norm() > 0.0))
        throw std::invalid_argument("continuation: the switching direction does not fit the start point");
    check(problem, start, settings);
    return BranchTracer(problem, settings, parameter_of(problem, settings))
        .run_from(start, direction, start_label);
}

const char* name_of(StopReason reason) {
    switch (reason) {
    case StopReason::MaxPoints:
        return "max_points";
    case StopReason::LeftBox:
        return "left_box";
    case StopReason::StepTooSmall:
        return "step_too_small";
    case StopReason::StartNotConverged:
        return "start_not_converged";
    case StopReason::Cancelled:
        return "cancelled";
    }
    return "?";
}

} // namespace bif::cont
