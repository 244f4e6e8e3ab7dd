// All equilibria of a flow at fixed parameters within a box of the state space: Newton's method from
// quasi-random starting points (a Halton sequence over the box), the roots inside the box merged
// when they agree within merge_tolerance, each with its eigenvalues and type. Threads share the
// starting points; the result does not depend on their number (sorted by state).
#pragma once

#include "engine/continuation/equilibrium_stability.h"
#include "engine/continuation/model_equations.h"

#include <vector>

namespace bif::cont {

struct EquilibriumSearch {
    std::vector<double> lower, upper; // the box, one bound per state
    int starts = 1000;
    int max_iterations = 60;
    double tolerance = 1e-11;        // Newton converges when |f|_inf <= tolerance * (1 + |y|_inf)
    double merge_tolerance = 1e-6;   // roots within this (max norm, relative to 1 + |y|) are one
    double neutral_tolerance = 1e-9; // classify()'s
    int threads = 0;                 // 0: the hardware's
};

struct Equilibrium {
    std::vector<double> state;
    Eigen::VectorXcd eigenvalues; // sorted_eigenvalues order
    Stability stability;
    double residual = 0.0; // |f|_inf at the state
};

// `p` holds every parameter slot (ModelEquations::slots). Throws std::invalid_argument for a box
// of the wrong size, with lower > upper, or starts < 1.
std::vector<Equilibrium> find_equilibria(const ModelEquations& equations, const std::vector<double>& p,
                                         const EquilibriumSearch& search);

// Newton's method for f(y) = 0 from y (in place), damped by halving the step until |f| decreases.
bool newton_equilibrium(const ModelEquations& equations, const double* p, Eigen::VectorXd& y,
                        int max_iterations, double tolerance);

// The eigenvalues and type of the equilibrium at y.
Equilibrium describe_equilibrium(const ModelEquations& equations, const double* p, const Eigen::VectorXd& y,
                                 double neutral_tolerance = 1e-9);

} // namespace bif::cont
