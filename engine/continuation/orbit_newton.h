// Newton's method on an orbit at a fixed parameter value, and the location of an orbit
// bifurcation by Newton on the extended system
//   [ G(u; lambda) ; psi(u; lambda) ] = 0   in (u, lambda),
// psi the bifurcation's test function (orbit_stability.h). The extended Jacobian's last row is a
// central difference of psi (psi comes from Floquet multipliers; its exact derivative would need
// second variational equations); its other rows are exact up to the integration.
#pragma once

#include "engine/continuation/orbit_problem.h"
#include "engine/continuation/orbit_stability.h"

namespace bif::cont {

struct OrbitNewtonSettings {
    int max_iterations = 30;
    double tolerance = 1e-10; // on the step: |du|_inf <= tolerance (1 + |u|_inf)
};

struct OrbitPoint {
    Eigen::VectorXd u;
    double lambda = 0.0;
    OrbitStability stability;
    int iterations = 0;
};

// From `guess` at `lambda`. False with `why` when an evaluation fails, the Jacobian is singular or
// Newton does not converge within the iterations.
bool solve_orbit(const OrbitProblem& problem, const Eigen::VectorXd& guess, double lambda,
                 const OrbitNewtonSettings& settings, OrbitPoint& out, std::string& why);

// From an orbit (u, lambda) near the bifurcation. The located point's stability is evaluated there.
bool locate_orbit_bifurcation(const OrbitProblem& problem, OrbitBifurcation kind, const Eigen::VectorXd& u,
                              double lambda, const OrbitNewtonSettings& settings, OrbitPoint& out,
                              std::string& why);

} // namespace bif::cont
