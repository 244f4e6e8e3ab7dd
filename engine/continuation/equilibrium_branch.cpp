#include "engine/continuation/equilibrium_branch.h"

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
    const Branch branch = continue_branch(problem, start, s);

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

} // namespace bif::cont
