// Pseudo-arclength continuation of a branch of zeros of F: R^{n+1} -> R^n (Keller's method, as in
// AUTO and MatCont): a tangent predictor, Newton's corrector within the hyperplane orthogonal to the
// previous tangent, the step adapted to the corrector's iterations, and test functions evaluated at
// every point, each sign change located on the branch between the two points that bracket it.
//
// Built-in tests (both can be switched off): a fold (LP) where the tangent's parameter component
// changes sign, a branch point (BP) where det [dF/dx; t^T] does. A problem adds its own (Hopf, period
// doubling, ...). The branch stops after max_points points, when it leaves the box (the exit point is
// located and labelled EP), when the step falls below min_step, or when cancelled.
#pragma once

#include "engine/continuation/bordered_newton.h"
#include "engine/continuation/continuation_problem.h"

#include <atomic>
#include <string>
#include <vector>

namespace bif::cont {

// The branch stays within min <= x[component] <= max.
struct Bound {
    int component = 0;
    double min = 0.0;
    double max = 0.0;
};

struct ContinuationSettings {
    int parameter = -1; // the component of x that is the continuation parameter; -1: the last
    int direction = 1;  // the first step increases (+1) or decreases (-1) the parameter
    double initial_step = 1e-2;
    double min_step = 1e-7;
    double max_step = 0.1;
    double step_growth = 1.5; // after a step whose corrector converged within easy_iterations
    double step_shrink = 0.5; // after a failed step
    int easy_iterations = 3;
    int max_points = 500; // regular and special points together, the start included
    NewtonSettings newton;
    std::vector<Bound> box;
    bool detect_folds = true;
    bool detect_branch_points = true;
    double location_tolerance = 1e-12; // on the arclength between the bracketing points
    int max_location_iterations = 80;
    // Successive unit tangents must satisfy t_new . t_old >= this, or the step is retried shorter:
    // a corrector that jumped to another branch turns the tangent.
    double min_tangent_cosine = 0.8;
    const std::atomic<bool>* cancel = nullptr;
};

struct ContinuationPoint {
    Vector x;
    Vector tangent;         // unit, oriented along the branch
    double arclength = 0.0; // from the start, summed over the pseudo-arclength steps
    int newton_iterations = 0;
    std::string label; // empty for a regular point; "LP", "BP", "EP" or a problem test's label
};

enum class StopReason { MaxPoints, LeftBox, StepTooSmall, StartNotConverged, Cancelled };

struct Branch {
    std::vector<ContinuationPoint> points; // the corrected start first; special points in branch order
    StopReason stop = StopReason::MaxPoints;
    std::string message; // why it stopped, in words
};

// Continues the branch through `start`. The start is first corrected onto the branch with the
// parameter held fixed.
Branch continue_branch(const ContinuationProblem& problem, const Vector& start,
                       const ContinuationSettings& settings);

// Continues a branch from a point already on it, its first step along `direction` (which also
// orients the branch): branch switching, where `start` is a branch point or a period doubling and
// the usual start (a correction at a fixed parameter) is singular. The start is kept as given, with
// the label `start_label`, and no test function is compared across the first step (they vanish at
// such a start, their signs there are noise).
Branch continue_branch_from(const ContinuationProblem& problem, const Vector& start, const Vector& direction,
                            const std::string& start_label, const ContinuationSettings& settings);

const char* name_of(StopReason reason);

} // namespace bif::cont
