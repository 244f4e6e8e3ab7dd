// An orbit's stability from its Floquet multipliers, and the test functions whose zeros along a
// branch mark its codimension-one bifurcations:
//   fold (LP)            psi_LP = prod_i (mu_i - 1)                  a multiplier at +1
//   period doubling (PD) psi_PD = prod_i (mu_i + 1)                  a multiplier at -1
//   Neimark-Sacker (NS)  psi_NS = prod_{i<j} (mu_i mu_j - 1)         a pair with mu_i mu_j = 1
// (Kuznetsov, Elements of Applied Bifurcation Theory, 3rd ed., Sec. 10.3; the NS product also
// vanishes at a neutral saddle, a real pair mu, 1/mu: classify_neimark_sacker tells them apart).
// Each factor is divided by 1 + |.|, which keeps the sign and the zeros but bounds the value, so
// multipliers spanning many orders of magnitude give no overflow. The trivial multiplier of an
// autonomous flow (the one nearest 1) is left out of all of them.
#pragma once

#include "engine/continuation/floquet_multipliers.h"
#include "engine/continuation/orbit_problem.h"

namespace bif::cont {

enum class OrbitBifurcation { Fold, PeriodDoubling, NeimarkSacker };

struct OrbitStability {
    std::vector<FloquetMultiplier> multipliers; // the nontrivial ones, by decreasing modulus
    bool has_trivial = false;
    FloquetMultiplier trivial; // the one left out, where has_trivial
    int unstable = 0;          // multipliers of modulus > 1
    double fold = 1.0;
    double period_doubling = 1.0;
    double neimark_sacker = 1.0;

    bool stable() const { return unstable == 0; }
    double test_function(OrbitBifurcation kind) const;
};

OrbitStability orbit_stability(const std::vector<Eigen::MatrixXd>& segments, bool has_trivial_multiplier);

// At an NS test function zero: whether the critical pair is complex on the unit circle (true) or a
// real pair mu, 1/mu (a neutral saddle, false).
bool is_neimark_sacker(const OrbitStability& s);

const char* bifurcation_label(OrbitBifurcation kind); // "LP", "PD", "NS"

} // namespace bif::cont
