// Two-parameter continuation of fold and Hopf points of equilibria: curves in the plane of two
// parameters (alpha, beta), through the minimally augmented systems (Govaerts, Numerical Methods for
// Bifurcations of Dynamical Equilibria, SIAM 2000; as MatCont does):
//   unknowns (y, alpha, beta), equations f(y, alpha, beta) = 0 and g(y, alpha, beta) = 0, where g
//   solves the bordered system [M b; c^T 0] [v; g] = [0; 1] for M = J (fold) or M = 2J (.) I, the
//   bialternate product (Hopf; it is singular where two eigenvalues sum to zero: a complex pair on
//   the imaginary axis, or a neutral saddle). g vanishes exactly where M is singular. The borders b
//   and c are M's singular vectors of its smallest singular value at the start, kept for the curve.
#pragma once

#include "engine/continuation/model_equations.h"
#include "engine/continuation/pseudo_arclength.h"

#include <string>
#include <vector>

namespace bif::cont {

enum class CurveKind { Fold, Hopf };

// 2A (.) I, the bialternate product of order n(n-1)/2, rows and columns indexed by the pairs (p, q),
// p > q, in the order (1,0), (2,0), (2,1), (3,0), ...; its eigenvalues are lambda_i + lambda_j, i < j.
Eigen::MatrixXd bialternate_product(const Eigen::MatrixXd& a);

struct CurvePoint {
    double alpha = 0.0, beta = 0.0;
    std::vector<double> state;
    double arclength = 0.0;
    std::string label; // empty, or EP where the curve leaves the parameter box
};

struct BifurcationCurve {
    std::vector<CurvePoint> points;
    StopReason stop = StopReason::MaxPoints;
    std::string message;
};

struct ParameterRange {
    double min = 0.0, max = 0.0;
};

// Continues the fold or Hopf point near (state, user_values) in the parameters
// equations.differentiated_parameters()[0] (alpha) and [1] (beta), within the ranges. The start is
// corrected with beta fixed. settings.parameter, box and the built-in tests are set here; the
// direction is beta's.
BifurcationCurve continue_bifurcation_curve(const ModelEquations& equations, CurveKind kind,
                                            const std::vector<double>& user_values,
                                            const std::vector<double>& state, ParameterRange alpha,
                                            ParameterRange beta, ContinuationSettings settings);

} // namespace bif::cont
