#include "engine/continuation/branch_switching.h"

#include <cmath>

namespace bif::cont {

namespace {

// The two columns spanning the null space of dF/dx at x, where it has rank n - 1.
bool null_space(const ContinuationProblem& problem, const Vector& x, double rank_tolerance, Matrix& basis) {
    Matrix j;
    if (!problem.jacobian(x, j) || !j.allFinite() || j.rows() < 1) return false;
    const Eigen::JacobiSVD<Matrix> svd(j, Eigen::ComputeFullV);
    const Vector& sigma = svd.singularValues(); // n values, decreasing
    const Eigen::Index n = j.rows();
    // relative to the Jacobian's largest singular value, or to 1 where all are small (a one-state
    // map's doubled orbit at its doubling has dF/dx = 0 to rounding)
    if (!(sigma[n - 1] <= rank_tolerance * std::max(sigma[0], 1.0))) return false;
    basis = svd.matrixV().rightCols(2);
    return true;
}

bool unit(Vector v, Vector& out) {
    const double norm = v.norm();
    if (!std::isfinite(norm) || norm == 0.0) return false;
    out = v / norm;
    return true;
}

} // namespace

bool orthogonal_switch_direction(const ContinuationProblem& problem, const Vector& x, const Vector& incoming,
                                 Vector& direction, double rank_tolerance) {
    Matrix basis;
    if (incoming.size() != x.size() || !null_space(problem, x, rank_tolerance, basis)) return false;
    // c = basis^T t; the null vector basis (-c1, c0) is orthogonal to the projection of t
    const Eigen::Vector2d c = basis.transpose() * incoming;
    return unit(basis * Eigen::Vector2d(-c[1], c[0]), direction);
}

bool fixed_component_switch_direction(const ContinuationProblem& problem, const Vector& x, int component,
                                      Vector& direction, double rank_tolerance) {
    Matrix basis;
    if (component < 0 || component >= x.size() || !null_space(problem, x, rank_tolerance, basis))
        return false;
    const Eigen::Vector2d r = basis.row(component).transpose();
    if (r.norm() == 0.0) return unit(basis.col(0), direction);
    return unit(basis * Eigen::Vector2d(-r[1], r[0]), direction);
}

} // namespace bif::cont
