#include "engine/continuation/equilibrium_branch.h"

#include "engine/continuation/branch_switching.h"
#include "engine/continuation/first_lyapunov.h"

#include <cmath>
#include <stdexcept>

namespace bif::cont {

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The real product over pairs i < j of s(mu_i + mu_j), s(z) = z / (1 + |z|): the sign and zeros of
// det(2J (.) I) without its overflow for larger n. Conjugate pairs of factors give positive reals.
double hopf_test(const Eigen::VectorXcd& mu) {
    std::complex<double> product = 1.0;
    for (Eigen::Index i = 0; i < mu.size(); ++i)
        for (Eigen::Index j = i + 1; j < mu.size(); ++j) {
            const std::complex<double> z = mu[i] + mu[j];
            product *= z / (1.0 + std::abs(z));
        }
    return product.real();
}

} // namespace

EquilibriumProblem::EquilibriumProblem(const ModelEquations& equations, std::vector<double> user_values,
                                       int which)
    : equations_(equations), user_values_(std::move(user_values)), which_(which) {
    if (which < 0 || which >= int(equations.differentiated_parameters().size()))
        throw std::invalid_argument("the continued parameter is not among the differentiated ones");
    if (int(user_values_.size()) != equations.parameter_count())
        throw std::invalid_argument("expected a value for each of the model's parameters");
    parameter_ = equations.differentiated_parameters()[std::size_t(which)];
}

std::vector<double> EquilibriumProblem::slots_at(double lambda) const {
    std::vector<double> values = user_values_;
    values[std::size_t(parameter_)] = lambda;
    return equations_.slots(values);
}

bool EquilibriumProblem::residual(const Vector& x, Vector& f) const {
    const int n = equation_count();
    const std::vector<double> p = slots_at(x[n]);
    f.resize(n);
    equations_.rhs(x.data(), p.data(), f.data());
    return f.allFinite();
}

bool EquilibriumProblem::jacobian(const Vector& x, Matrix& j) const {
    const int n = equation_count();
    const std::vector<double> p = slots_at(x[n]);
    RowMajor jy(n, n);
    equations_.jacobian(x.data(), p.data(), jy.data());
    Vector dfdp(n);
    equations_.parameter_derivative(which_, x.data(), p.data(), dfdp.data());
    j.resize(n, n + 1);
    j.leftCols(n) = jy;
    j.col(n) = dfdp;
    return j.allFinite();
}

void EquilibriumProblem::test_functions(const Vector&, const Matrix& j, const Vector&, Vector& values) const {
    const int n = equation_count();
    values.resize(1);
    values[0] = hopf_test(sorted_eigenvalues(j.leftCols(n)));
}

bool EquilibriumProblem::accept_special_point(int, const Vector&, const Matrix& j, const Vector&) const {
    const Eigen::VectorXcd mu = sorted_eigenvalues(j.leftCols(equation_count()));
    const double zero = 1e-5 * std::max(1.0, mu.cwiseAbs().maxCoeff());
    for (const std::complex<double>& m : mu)
        if (std::abs(m.real()) <= zero && std::abs(m.imag()) > zero) return true;
    return false;
}

namespace {

EquilibriumBranch equilibrium_branch_of(const ModelEquations& equations, const EquilibriumProblem& problem,
                                        const Branch& branch) {
    const int n = equations.dimension();
    EquilibriumBranch out;
    out.stop = branch.stop;
    out.message = branch.message;
    for (const ContinuationPoint& c : branch.points) {
        EquilibriumBranchPoint p;
        p.parameter = c.x[n];
        p.state.assign(c.x.data(), c.x.data() + n);
        const std::vector<double> slots = problem.slots_at(p.parameter);
        RowMajor j(n, n);
        equations.jacobian(c.x.data(), slots.data(), j.data());
        p.eigenvalues = sorted_eigenvalues(j);
        p.stability = classify(p.eigenvalues);
        p.label = c.label;
        p.arclength = c.arclength;
        if (c.label == "H") p.first_lyapunov = first_lyapunov_coefficient(equations, slots.data(), p.state);
        out.points.push_back(std::move(p));
    }
    return out;
}

Vector point_of(const EquilibriumBranchPoint& p) {
    Vector x(Eigen::Index(p.state.size()) + 1);
    for (std::size_t i = 0; i < p.state.size(); ++i)
        x[Eigen::Index(i)] = p.state[i];
    x[x.size() - 1] = p.parameter;
    return x;
}

} // namespace

EquilibriumBranch continue_equilibrium(const ModelEquations& equations,
                                       const std::vector<double>& user_values, int which,
                                       const std::vector<double>& state,
                                       const ContinuationSettings& settings) {
    const EquilibriumProblem problem(equations, user_values, which);
    const int n = equations.dimension();
    if (int(state.size()) != n)
        throw std::invalid_argument("the start state needs " + std::to_string(n) + " values");
    const int parameter = equations.differentiated_parameters()[std::size_t(which)];
    Vector start(n + 1);
    for (int i = 0; i < n; ++i)
        start[i] = state[std::size_t(i)];
    start[n] = user_values[std::size_t(parameter)];
    ContinuationSettings s = settings;
    s.parameter = n;
    return equilibrium_branch_of(equations, problem, continue_branch(problem, start, s));
}

EquilibriumBranch switch_equilibrium_branch(const ModelEquations& equations,
                                            const std::vector<double>& user_values, int which,
                                            const EquilibriumBranch& branch, std::size_t index, int side,
                                            const ContinuationSettings& settings) {
    if (index >= branch.points.size() || branch.points.size() < 2)
        throw std::invalid_argument("branch switching needs a point of a branch of at least two points");
    const EquilibriumProblem problem(equations, user_values, which);
    const int n = equations.dimension();
    const Vector x = point_of(branch.points[index]);
    if (x.size() != n + 1) throw std::invalid_argument("the branch point does not fit the model");
    // the secant through the neighbours: the tangent at a branch point itself is not defined
    const std::size_t before = index == 0 ? 0 : index - 1;
    const std::size_t after = std::min(index + 1, branch.points.size() - 1);
    const Vector secant = point_of(branch.points[after]) - point_of(branch.points[before]);
    Vector direction;
    if (!orthogonal_switch_direction(problem, x, secant, direction))
        throw std::invalid_argument("no branch point at " + std::to_string(x[n]) +
                                    ": the Jacobian keeps its full rank there");
    ContinuationSettings s = settings;
    s.parameter = n;
    return equilibrium_branch_of(
        equations, problem, continue_branch_from(problem, x, side < 0 ? -direction : direction, "BP", s));
}

} // namespace bif::cont
