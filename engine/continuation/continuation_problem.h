// What pseudo-arclength continuation follows: F: R^{n+1} -> R^n, whose zeros near a regular point
// form a curve (a branch). The core (engine/continuation/pseudo_arclength.h) knows nothing else about
// the problem: an equilibrium branch, a periodic-orbit branch or a curve of folds in the plane of two
// parameters are all such an F, with their own test functions.
#pragma once

#include <Eigen/Dense>
#include <string>

namespace bif::cont {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;

class ContinuationProblem {
  public:
    virtual ~ContinuationProblem() = default;

    // n: the number of equations; the unknowns x are n + 1.
    virtual int equation_count() const = 0;

    // f = F(x) (f has n entries). False where F cannot be evaluated (a non-finite value, a point
    // outside the problem's domain): the step that led there is retried shorter.
    virtual bool residual(const Vector& x, Vector& f) const = 0;

    // j = dF/dx, n x (n + 1). The default differentiates residual by central finite differences;
    // override it where an exact Jacobian exists.
    virtual bool jacobian(const Vector& x, Matrix& j) const;

    // The problem's own test functions (the core adds a fold and a branch-point test): a sign change
    // of values[k] between two points of the branch marks a special point, located in between and
    // labelled test_function_label(k). `tangent` is the unit tangent at x, oriented along the branch.
    virtual int test_function_count() const { return 0; }
    virtual std::string test_function_label(int k) const;
    virtual void test_functions(const Vector& x, const Matrix& j, const Vector& tangent,
                                Vector& values) const;

    // Whether a located zero of test k is a special point of that kind (a zero of a Hopf test
    // function may be a neutral saddle, say). Called once per located zero.
    virtual bool accept_special_point(int k, const Vector& x, const Matrix& j, const Vector& tangent) const;

    // Called with each point the branch keeps (its start, then every regular point), before the next
    // step: a problem whose F refers to the last solution (a phase condition's reference, the
    // borders of a minimally augmented system) moves it there. F's zeros must not depend on it.
    virtual void point_accepted(const Vector& x) const { (void)x; }
};

// j = dF/dx by central differences, step cbrt(eps) * (1 + |x_i|) per column.
bool finite_difference_jacobian(const ContinuationProblem& problem, const Vector& x, Matrix& j);

} // namespace bif::cont
