// One-parameter continuation of an equilibrium: F(y, lambda) = f(y, p(lambda)) with the exact
// Jacobian [d f / d y | d f / d lambda], through the pseudo-arclength core. Besides the core's fold
// (LP) and branch-point (BP) tests, a Hopf test (H): the real product over pairs i < j of
// (mu_i + mu_j) / (1 + |mu_i + mu_j|), mu the eigenvalues of d f / d y. The unscaled product is
// det(2 J (.) I), the bialternate product's determinant; it vanishes where a complex pair crosses the
// imaginary axis, and also at a neutral saddle (real mu and -mu), which is not reported.
#pragma once

#include "engine/continuation/equilibrium_stability.h"
#include "engine/continuation/model_equations.h"
#include "engine/continuation/pseudo_arclength.h"

#include <limits>
#include <string>
#include <vector>

namespace bif::cont {

class EquilibriumProblem : public ContinuationProblem {
  public:
    // `which` indexes equations.differentiated_parameters(); `user_values` holds every user
    // parameter's value (the continued one's is replaced by x[n]).
    EquilibriumProblem(const ModelEquations& equations, std::vector<double> user_values, int which);

    int equation_count() const override { return equations_.dimension(); }
    bool residual(const Vector& x, Vector& f) const override;
    bool jacobian(const Vector& x, Matrix& j) const override;
    int test_function_count() const override { return 1; }
    std::string test_function_label(int) const override { return "H"; }
    void test_functions(const Vector& x, const Matrix& j, const Vector& tangent,
                        Vector& values) const override;
    bool accept_special_point(int k, const Vector& x, const Matrix& j, const Vector& tangent) const override;

    // Every parameter slot at the parameter value lambda.
    std::vector<double> slots_at(double lambda) const;

  private:
    const ModelEquations& equations_;
    std::vector<double> user_values_;
    int which_;
    int parameter_; // the user parameter's index
};

struct EquilibriumBranchPoint {
    double parameter = 0.0;
    std::vector<double> state;
    Eigen::VectorXcd eigenvalues; // sorted_eigenvalues order
    Stability stability;
    std::string label; // empty, LP, BP, H or EP
    double arclength = 0.0;
    // At H points: the first Lyapunov coefficient (negative: supercritical, a stable cycle is born);
    // NaN elsewhere or where it could not be computed.
    double first_lyapunov = std::numeric_limits<double>::quiet_NaN();
};

struct EquilibriumBranch {
    std::vector<EquilibriumBranchPoint> points;
    StopReason stop = StopReason::MaxPoints;
    std::string message;
};

// Continues the equilibrium near `state` at the parameter value user_values[parameter] (the start
// is corrected with the parameter fixed). `which` indexes equations.differentiated_parameters().
EquilibriumBranch continue_equilibrium(const ModelEquations& equations,
                                       const std::vector<double>& user_values, int which,
                                       const std::vector<double>& state,
                                       const ContinuationSettings& settings);

// The other branch through the branch point branch.points[index] (a BP of `branch`, continued in
// the same parameter): it starts along the null vector of the Jacobian orthogonal to the secant of
// `branch` through that point (branch_switching.h), `side` (+1 or -1) choosing which half. Its first
// point is the branch point, labelled BP. Throws std::invalid_argument where the point is not a
// branch point (the Jacobian keeps its rank there).
EquilibriumBranch switch_equilibrium_branch(const ModelEquations& equations,
                                            const std::vector<double>& user_values, int which,
                                            const EquilibriumBranch& branch, std::size_t index, int side,
                                            const ContinuationSettings& settings);

} // namespace bif::cont
