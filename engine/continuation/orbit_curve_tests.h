// The codimension-two test functions along a curve of orbit bifurcations (orbit_curve.h), from the
// orbit's nontrivial Floquet multipliers. Each factor z is squashed to z / (1 + |z|) as in
// orbit_stability.h: the sign and the zeros stay, the product cannot overflow.
#pragma once

#include "engine/continuation/continuation_problem.h"
#include "engine/continuation/orbit_stability.h"

#include <string>
#include <vector>

namespace bif::cont {

// LP: R1, LPPD, LPNS; PD: R2, LPPD, PDNS; NS: R1, R2, R3, R4, LPNS, PDNS.
const std::vector<std::string>& codim2_labels(OrbitBifurcation curve);

// The values of those tests, in that order.
Vector codim2_tests(OrbitBifurcation curve, const OrbitStability& s);

// Whether a located zero of test k is that point: an LPNS or PDNS needs the pair on the unit circle
// to be complex (a real pair mu, 1/mu is a neutral saddle).
bool accept_codim2(OrbitBifurcation curve, int k, const OrbitStability& s);

// cos theta of the critical pair of an NS curve: (mu_i + mu_j) / 2 for the pair whose product is
// nearest 1 (real beyond R1 and R2, where the pair is real). NaN with fewer than two multipliers.
double neimark_sacker_cosine(const OrbitStability& s);

} // namespace bif::cont
