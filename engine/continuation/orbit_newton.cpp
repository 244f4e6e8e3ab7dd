#include "engine/continuation/orbit_newton.h"

#include <cmath>

namespace bif::cont {
namespace {

bool converged(const Eigen::VectorXd& step, const Eigen::VectorXd& u, double tolerance) {
    return step.lpNorm<Eigen::Infinity>() <= tolerance * (1.0 + u.lpNorm<Eigen::Infinity>());
}

// Solves a x = b; false where a is singular to working precision.
bool solve(const Eigen::MatrixXd& a, const Eigen::VectorXd& b, Eigen::VectorXd& x) {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(a);
    if (qr.rank() < a.rows()) return false;
    x = qr.solve(b);
    return x.allFinite();
}

bool finish(const OrbitProblem& problem, const Eigen::VectorXd& u, double lambda, int iterations,
            OrbitPoint& out, std::string& why) {
    OrbitEvaluation e;
    if (!problem.evaluate(u, lambda, false, e, why)) return false;
    out.u = u;
    out.lambda = lambda;
    out.iterations = iterations;
    out.stability = orbit_stability(e.segments, problem.has_trivial_multiplier());
    return true;
}

// psi at (u, lambda); false when the evaluation fails.
bool test_value(const OrbitProblem& problem, OrbitBifurcation kind, const Eigen::VectorXd& u, double lambda,
                double& psi, std::string& why) {
    OrbitEvaluation e;
    if (!problem.evaluate(u, lambda, false, e, why)) return false;
    psi = orbit_stability(e.segments, problem.has_trivial_multiplier()).test_function(kind);
    return true;
}

// Halves the Newton step until the residual decreases or the map can be evaluated at all (a full
// step from a poor guess can leave the basin where the flow is tame: van der Pol's relaxation
// cycle from a rough period). Returns the step taken.
Eigen::VectorXd damped(const OrbitProblem& problem, const Eigen::VectorXd& u, double lambda,
                       const Eigen::VectorXd& full, double residual_norm) {
    Eigen::VectorXd step = full, g;
    std::string ignored;
    for (int halvings = 0; halvings < 10; ++halvings, step *= 0.5)
        if (problem.residual(u + step, lambda, g, ignored) && g.norm() < residual_norm) return step;
    return full;
}

} // namespace

bool solve_orbit(const OrbitProblem& problem, const Eigen::VectorXd& guess, double lambda,
                 const OrbitNewtonSettings& settings, OrbitPoint& out, std::string& why) {
    Eigen::VectorXd u = guess, step;
    OrbitEvaluation e;
    for (int it = 1; it <= settings.max_iterations; ++it) {
        if (!problem.evaluate(u, lambda, false, e, why)) return false;
        if (!solve(e.jacobian, -e.residual, step)) {
            why = "the orbit's Jacobian is singular (a fold or a multiplier at 1)";
            return false;
        }
        if (!converged(step, u, settings.tolerance))
            step = damped(problem, u, lambda, step, e.residual.norm());
        u += step;
        if (converged(step, u, settings.tolerance)) return finish(problem, u, lambda, it, out, why);
    }
    why = "Newton did not converge to an orbit in " + std::to_string(settings.max_iterations) + " iterations";
    return false;
}

bool locate_orbit_bifurcation(const OrbitProblem& problem, OrbitBifurcation kind, const Eigen::VectorXd& u0,
                              double lambda0, const OrbitNewtonSettings& settings, OrbitPoint& out,
                              std::string& why) {
    const int n = problem.unknowns();
    Eigen::VectorXd z(n + 1), step;
    z << u0, lambda0;
    OrbitEvaluation e;
    for (int it = 1; it <= settings.max_iterations; ++it) {
        const Eigen::VectorXd u = z.head(n);
        const double lambda = z[n];
        if (!problem.evaluate(u, lambda, true, e, why)) return false;
        const double psi = orbit_stability(e.segments, problem.has_trivial_multiplier()).test_function(kind);
        Eigen::MatrixXd a(n + 1, n + 1);
        Eigen::VectorXd rhs(n + 1);
        a.topLeftCorner(n, n) = e.jacobian;
        a.topRightCorner(n, 1) = e.parameter_derivative;
        rhs << -e.residual, -psi;
        for (int j = 0; j <= n; ++j) {
            const double h = 1e-6 * (1.0 + std::abs(z[j]));
            Eigen::VectorXd zp = z, zm = z;
            zp[j] += h;
            zm[j] -= h;
            double psi_p = 0, psi_m = 0;
            if (!test_value(problem, kind, zp.head(n), zp[n], psi_p, why) ||
                !test_value(problem, kind, zm.head(n), zm[n], psi_m, why))
                return false;
            a(n, j) = (psi_p - psi_m) / (2 * h);
        }
        if (!solve(a, rhs, step)) {
            why = std::string("the extended system of the ") + bifurcation_label(kind) + " point is singular";
            return false;
        }
        z += step;
        if (converged(step, z, settings.tolerance)) return finish(problem, z.head(n), z[n], it, out, why);
    }
    why = std::string("Newton did not locate the ") + bifurcation_label(kind) + " point";
    return false;
}

} // namespace bif::cont
