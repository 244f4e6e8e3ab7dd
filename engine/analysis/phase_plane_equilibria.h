// Equilibria of a planar system: seeds where both components of the field change sign within one
// grid cell (where the two nullclines cross), refined by Newton's method with the model's exact
// Jacobian, then classified by the eigenvalues of that 2 x 2 Jacobian in closed form:
//   lambda = tr/2 +- sqrt(tr^2/4 - det),  tr = a + d, det = a d - b c  for J = [a b; c d].
// For a model with more than two states these are equilibria of the planar system (the other
// states held fixed), which are the model's own only when those states are at rest there too.
#pragma once

#include "engine/analysis/phase_plane_contours.h"
#include "engine/analysis/phase_plane_system.h"

#include <array>
#include <complex>
#include <optional>
#include <vector>

namespace bif::analysis {

enum class EquilibriumType {
    Saddle,
    StableNode,
    UnstableNode,
    StableFocus,
    UnstableFocus,
    Centre,     // purely imaginary eigenvalues (linear centre; the nonlinear terms decide)
    Degenerate, // a zero eigenvalue: not hyperbolic
};

struct Equilibrium {
    PlanePoint at;
    EquilibriumType type = EquilibriumType::Degenerate;
    std::array<std::complex<double>, 2> eigenvalues; // the larger real part first
    // Real eigenvalues: unit eigenvectors, one per eigenvalue (the stable and unstable directions of
    // a saddle); zero for complex ones.
    std::array<PlanePoint, 2> eigenvectors;
    std::array<double, 4> jacobian{}; // row-major
};

// "saddle", "stable node", ..., for labels and CSV.
const char* name_of(EquilibriumType type);

// Eigenvalues, eigenvectors and type of the Jacobian J (row-major 2 x 2). Eigenvalues whose real
// part is below 1e-9 of the Jacobian's scale count as zero real parts.
Equilibrium classify(PlanePoint at, const std::array<double, 4>& J);

// Newton's method from `seed`: the point where |f| has fallen to rounding, or nothing when it does
// not converge within 50 steps or the Jacobian is singular there.
std::optional<PlanePoint> refine_equilibrium(const PlanarSystem& system, PlanePoint seed);

// The equilibria inside `window`, from the two field components sampled on one grid (fx, fy with
// the same size and window). Each equilibrium once, ordered by x then y.
std::vector<Equilibrium> find_equilibria(const PlanarSystem& system, const SampledGrid& fx,
                                         const SampledGrid& fy);

} // namespace bif::analysis
