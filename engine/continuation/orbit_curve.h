// Two-parameter continuation of the bifurcations of a periodic orbit: curves of folds (LP), period
// doublings (PD) and Neimark-Sacker points (NS) in the plane of two parameters (alpha, beta), for
// any period map (maps, stroboscopic maps, shooting), through minimally augmented systems (Govaerts,
// Numerical Methods for Bifurcations of Dynamical Equilibria, SIAM 2000, ch. 4 and 9; Kuznetsov,
// Govaerts, Doedel & Dhooge, SIAM J. Numer. Anal. 43 (2005) 1407 for maps, as MatCont does):
//   unknowns (u, alpha, beta), equations G(u; alpha, beta) = 0 and g(u, alpha, beta) = 0, where g
//   solves the bordered system [A b; c^T 0] [v; g] = [0; 1] for
//     LP: A = dG/du            (the orbit's Jacobian: M - I, or shooting's bordered one)
//     PD: A = M + I            (M the period map's monodromy matrix)
//     NS: A = M (.) M - I      (M (.) M the second compound matrix, eigenvalues mu_i mu_j, i < j:
//                               singular at a complex pair on the unit circle or a neutral saddle)
//   g vanishes exactly where A is singular. The borders b and c are A's singular vectors of its
//   smallest singular value, moved to the left and right null vectors at every accepted point.
// dG/du is exact (variational equations), dG/d(alpha, beta) and dg are central differences.
//
// Codimension-two points along the curves, from the Floquet multipliers (the critical ones: the
// multiplier nearest +1 on LP, nearest -1 on PD, the pair whose product is nearest 1 on NS):
//   LP curve: R1 (another multiplier 1: 1:1 resonance), LPPD (a multiplier -1: fold-flip),
//             LPNS (a complex pair on the unit circle: fold-Neimark-Sacker);
//   PD curve: R2 (another multiplier -1: 1:2 resonance), LPPD (a multiplier 1), PDNS (flip-NS);
//   NS curve: R1, R2, R3, R4 where the pair e^(+-i theta) has cos theta = 1, -1, -1/2, 0 (the
//             strong resonances 1:1 .. 1:4; beyond R1 and R2 the curve goes on as a neutral saddle
//             curve), LPNS and PDNS (another multiplier at 1 or -1).
// Degeneracies of the normal forms (cusp, generalised flip, Chenciner) are not detected.
#pragma once

#include "engine/continuation/orbit_problem.h"
#include "engine/continuation/orbit_stability.h"
#include "engine/continuation/pseudo_arclength.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bif::cont {

// The orbit's period map at given values of the model's user parameters, its continued parameter
// (lambda) being alpha: called for every beta the curve visits.
using OrbitFactory = std::function<std::unique_ptr<OrbitProblem>(const std::vector<double>& user_values)>;

// The second compound matrix of m (n x n): its entries the 2 x 2 minors
// m_pr m_qs - m_ps m_qr, rows (p, q) and columns (r, s) ordered as the bialternate product's
// ((1,0), (2,0), (2,1), (3,0), ...); its eigenvalues are mu_i mu_j, i < j.
Eigen::MatrixXd second_compound(const Eigen::MatrixXd& m);

struct OrbitCurvePoint {
    double alpha = 0.0, beta = 0.0;
    std::vector<double> unknowns; // u: a point of the orbit (then T for shooting)
    double period = 0.0;          // model time, iterates for a map
    OrbitStability stability;
    std::string label; // empty, EP, or a codimension-two point's label above
    double arclength = 0.0;
};

struct OrbitCurve {
    std::vector<OrbitCurvePoint> points;
    StopReason stop = StopReason::MaxPoints;
    std::string message;
};

struct ParameterInterval {
    double min = 0.0, max = 0.0;
};

struct OrbitCurveStart {
    std::vector<double> user_values; // every user parameter; beta's value is the start's
    int alpha = -1, beta = -1;       // user parameter indices
    Eigen::VectorXd u;               // the orbit at the bifurcation (from a branch's LP, PD or NS)
    double alpha_value = 0.0;
};

// Continues the curve of `kind` through the start, within the intervals (settings.box may add
// bounds on the unknowns; alpha and beta are the unknowns u.size() and u.size() + 1). The start is
// corrected with beta fixed; settings.direction is beta's. The built-in fold and branch-point
// tests are switched off. Throws std::invalid_argument where the start does not fit (an NS curve
// of a map of one state, a parameter index out of range).
OrbitCurve continue_orbit_curve(const OrbitFactory& factory, OrbitBifurcation kind,
                                const OrbitCurveStart& start, ParameterInterval alpha, ParameterInterval beta,
                                ContinuationSettings settings);

} // namespace bif::cont
