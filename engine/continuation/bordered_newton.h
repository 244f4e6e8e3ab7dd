// The two linear-algebra steps of pseudo-arclength continuation, on the bordered (n+1) x (n+1)
// system [J; c^T]: Newton's corrector onto the branch within a hyperplane, and the unit tangent.
#pragma once

#include "engine/continuation/continuation_problem.h"

namespace bif::cont {

struct NewtonSettings {
    double residual_tolerance = 1e-10; // max norm of F (and of the hyperplane equation)
    double step_tolerance = 1e-10;     // max norm of the last update, relative to 1 + |x|
    int max_iterations = 8;
};

struct NewtonOutcome {
    bool converged = false;
    int iterations = 0;
};

// Solves F(x) = 0 together with c . (x - anchor) = offset by Newton's method from x (updated in
// place). On success `j` holds dF/dx at the returned x.
NewtonOutcome correct_on_hyperplane(const ContinuationProblem& problem, Vector& x, const Vector& c,
                                    const Vector& anchor, double offset, const NewtonSettings& settings,
                                    Matrix& j);

// The unit tangent t of the branch where dF/dx = j: j t = 0, oriented so that t . reference > 0
// (it solves [j; reference^T] t = [0; 1]). False where the bordered matrix is singular.
bool unit_tangent(const Matrix& j, const Vector& reference, Vector& t);

// det [j; t^T]: along a branch with a consistently oriented tangent it keeps its sign, and changes
// it at a simple branch point (where two branches cross and j loses rank).
double bordered_determinant(const Matrix& j, const Vector& t);

} // namespace bif::cont
