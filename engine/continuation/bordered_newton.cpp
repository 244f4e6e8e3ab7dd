#include "engine/continuation/bordered_newton.h"

#include <cmath>

namespace bif::cont {

namespace {

Matrix bordered(const Matrix& j, const Vector& c) {
    Matrix a(j.rows() + 1, j.cols());
    a.topRows(j.rows()) = j;
    a.row(j.rows()) = c.transpose();
    return a;
}

// G(x) = [F(x); c . (x - anchor) - offset]
bool extended_residual(const ContinuationProblem& problem, const Vector& x, const Vector& c,
                       const Vector& anchor, double offset, Vector& g) {
    const int n = problem.equation_count();
    Vector f(n);
    if (!problem.residual(x, f) || !f.allFinite()) return false;
    g.resize(n + 1);
    g.head(n) = f;
    g[n] = c.dot(x - anchor) - offset;
    return true;
}

} // namespace

NewtonOutcome correct_on_hyperplane(const ContinuationProblem& problem, Vector& x, const Vector& c,
                                    const Vector& anchor, double offset, const NewtonSettings& settings,
                                    Matrix& j) {
    NewtonOutcome out;
    Vector g;
    double last_step = 0.0;
    for (int it = 0; it <= settings.max_iterations; ++it) {
        if (!extended_residual(problem, x, c, anchor, offset, g)) return out;
        // A point that already satisfies G needs no solve; the bordered matrix may be singular there
        // (a predictor that lands exactly on a branch point).
        const bool small_residual = g.lpNorm<Eigen::Infinity>() <= settings.residual_tolerance;
        if (small_residual && (it == 0 || last_step <= settings.step_tolerance)) {
            if (!problem.jacobian(x, j) || !j.allFinite()) return out;
            out.converged = true;
            out.iterations = it;
            return out;
        }
        if (it == settings.max_iterations) break;
        if (!problem.jacobian(x, j) || !j.allFinite()) return out;
        const Vector dx = bordered(j, c).partialPivLu().solve(g);
        if (!dx.allFinite()) return out;
        x -= dx;
        last_step = dx.lpNorm<Eigen::Infinity>() / (1.0 + x.lpNorm<Eigen::Infinity>());
    }
    out.iterations = settings.max_iterations;
    return out;
}

bool unit_tangent(const Matrix& j, const Vector& reference, Vector& t) {
    Vector rhs = Vector::Zero(j.rows() + 1);
    rhs[j.rows()] = 1.0;
    t = bordered(j, reference).partialPivLu().solve(rhs);
    const double norm = t.norm();
    if (!std::isfinite(norm) || norm == 0.0) return false;
    t /= norm;
    return true;
}

double bordered_determinant(const Matrix& j, const Vector& t) {
    return bordered(j, t).partialPivLu().determinant();
}

} // namespace bif::cont
