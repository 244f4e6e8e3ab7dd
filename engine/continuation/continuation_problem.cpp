#include "engine/continuation/continuation_problem.h"

#include <cmath>
#include <limits>

namespace bif::cont {

bool ContinuationProblem::jacobian(const Vector& x, Matrix& j) const {
    return finite_difference_jacobian(*this, x, j);
}

std::string ContinuationProblem::test_function_label(int k) const {
    std::string label = std::to_string(k);
    label.insert(label.begin(), 'T');
    return label;
}

void ContinuationProblem::test_functions(const Vector&, const Matrix&, const Vector&, Vector& values) const {
    values.resize(0);
}

bool ContinuationProblem::accept_special_point(int, const Vector&, const Matrix&, const Vector&) const {
    return true;
}

bool finite_difference_jacobian(const ContinuationProblem& problem, const Vector& x, Matrix& j) {
    const int n = problem.equation_count();
    const double base = std::cbrt(std::numeric_limits<double>::epsilon());
    j.resize(n, x.size());
    Vector xh = x, f_plus(n), f_minus(n);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double h = base * (1.0 + std::abs(x[i]));
        xh[i] = x[i] + h;
        if (!problem.residual(xh, f_plus)) return false;
        xh[i] = x[i] - h;
        if (!problem.residual(xh, f_minus)) return false;
        xh[i] = x[i];
        // dF/dx_i ~ (F(x + h e_i) - F(x - h e_i)) / 2h, error O(h^2)
        j.col(i) = (f_plus - f_minus) / (2.0 * h);
    }
    return j.allFinite();
}

} // namespace bif::cont
