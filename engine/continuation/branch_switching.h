// Directions for branch switching: at a simple branch point x of F: R^{n+1} -> R^n the Jacobian
// dF/dx loses rank and its null space is two-dimensional, spanned by the tangents of the two
// branches that cross there. The null space comes from the SVD of dF/dx (its last two right
// singular vectors); the direction of the other branch is chosen in it (AUTO and MatCont start the
// second branch the same way when they skip the algebraic branching equation):
//   - orthogonal to the tangent of the branch that led there (a pitchfork of a symmetric problem,
//     the Lorenz origin at r = 1, is exactly so; a transcritical point is close, and the corrector
//     lands on the other branch, which crosses the predictor's hyperplane first);
//   - with a zero parameter component: a period-k orbit at its period doubling, seen as a period-2k
//     orbit, is a pitchfork of P^2 whose new branch leaves at a fixed parameter along the
//     eigenvector of the multiplier -1.
#pragma once

#include "engine/continuation/continuation_problem.h"

namespace bif::cont {

// The unit vector of the null space of dF/dx at x orthogonal to `incoming` (the tangent, or a secant,
// of the branch that led to x). False where F's Jacobian cannot be evaluated or x is no branch
// point: the smallest singular value of dF/dx is not small (relative `rank_tolerance`, to the
// largest or to 1; infinity: no check).
bool orthogonal_switch_direction(const ContinuationProblem& problem, const Vector& x, const Vector& incoming,
                                 Vector& direction, double rank_tolerance = 1e-5);

// The unit vector of that null space whose `component` is zero.
bool fixed_component_switch_direction(const ContinuationProblem& problem, const Vector& x, int component,
                                      Vector& direction, double rank_tolerance = 1e-5);

} // namespace bif::cont
