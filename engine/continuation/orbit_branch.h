// One-parameter continuation of a periodic orbit through the pseudo-arclength core
// (pseudo_arclength.h): x = (u, lambda), F(x) = G(u; lambda) of an OrbitProblem, with the core's
// fold (LP) and branch-point (BP) tests and two of the orbit's own, from its Floquet multipliers
// (orbit_stability.h): period doubling (PD) and Neimark-Sacker (NS; a zero where the critical
// pair is real, a neutral saddle, is not reported). Unstable parts are followed like stable ones.
//
// The orbit's phase condition (autonomous flows) moves its reference to each accepted point, as
// AUTO's integral phase condition refers to the previous solution: with a fixed reference the
// hyperplane stops cutting the orbits as they shrink towards a Hopf point, and the branch turns
// where the plane touches an orbit (a fold of G that is no fold of the orbits) and retraces itself.
#pragma once

#include "engine/continuation/orbit_problem.h"
#include "engine/continuation/orbit_stability.h"
#include "engine/continuation/pseudo_arclength.h"

#include <string>
#include <vector>

namespace bif::cont {

class OrbitBranchProblem : public ContinuationProblem {
  public:
    explicit OrbitBranchProblem(const OrbitProblem& orbit) : orbit_(orbit) {}

    int equation_count() const override { return orbit_.unknowns(); }
    bool residual(const Vector& x, Vector& f) const override;
    bool jacobian(const Vector& x, Matrix& j) const override;
    int test_function_count() const override { return 2; }
    std::string test_function_label(int k) const override;
    void test_functions(const Vector& x, const Matrix& j, const Vector& tangent,
                        Vector& values) const override;
    bool accept_special_point(int k, const Vector& x, const Matrix& j, const Vector& tangent) const override;
    void point_accepted(const Vector& x) const override { orbit_.set_reference(x.head(orbit_.unknowns())); }

    // The multipliers at x (the segments of the last Jacobian when it was at x).
    OrbitStability stability_at(const Vector& x) const;

  private:
    const OrbitProblem& orbit_;
    // The core asks for the test functions where it has just evaluated the Jacobian: the segments
    // of that evaluation are kept for them.
    mutable Vector cached_x_;
    mutable std::vector<Eigen::MatrixXd> cached_segments_;
    // Every point the tests were evaluated at, with its stability, for the branch's output.
    mutable std::vector<std::pair<Vector, OrbitStability>> tested_;
};

struct OrbitBranchPoint {
    double parameter = 0.0;
    std::vector<double> unknowns; // u: a point of the orbit (then T for an autonomous flow)
    double period = 0.0;          // model time, iterates for a map
    OrbitStability stability;
    std::string label; // empty, LP, BP, PD, NS or EP
    double arclength = 0.0;
};

struct OrbitBranch {
    std::vector<OrbitBranchPoint> points;
    StopReason stop = StopReason::MaxPoints;
    std::string message;
};

// Continues the orbit through (u, lambda); the start is corrected first with lambda fixed.
OrbitBranch continue_orbit(const OrbitProblem& orbit, const Vector& u, double lambda,
                           const ContinuationSettings& settings);

// Branch switching at a period doubling: the period-2k orbit born at the PD point (u, lambda) of a
// period-k orbit. `doubled` is the period map squared (a map's or a stroboscopic map's 2k, or
// shooting over the doubled period) and `u` the PD point in its unknowns (for shooting: the state,
// then twice the period). There the period-k orbit, as a fixed point of P^2, crosses the new branch
// in a pitchfork; the new branch leaves it at a fixed parameter (branch_switching.h), `side` (+1 or
// -1) choosing which of the orbit's points it follows. Its first point is the doubling, labelled
// PD. Throws std::invalid_argument where (u, lambda) is no period doubling.
OrbitBranch continue_doubled_orbit(const OrbitProblem& doubled, const Vector& u, double lambda,
                                   const ContinuationSettings& settings, int side = 1);

} // namespace bif::cont
