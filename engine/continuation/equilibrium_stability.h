// The eigenvalues of an equilibrium's Jacobian and what they say about it: the counts of eigenvalues
// in each half plane and of complex pairs, and the type (node, saddle, focus, centre).
//
// An eigenvalue is neutral when |Re| <= tolerance * max(1, max |eigenvalue|); a pair is complex when
// |Im| exceeds that as well. Types: all eigenvalues stable (unstable) -> stable (unstable) node, or
// focus when any of them is complex; both signs and no neutral one -> saddle (saddle-focus with a
// complex pair); in two dimensions a pure imaginary pair is a centre; anything else with a neutral
// eigenvalue is non-hyperbolic (the counts say more).
#pragma once

#include <Eigen/Dense>

namespace bif::cont {

enum class EquilibriumType {
    StableNode,
    UnstableNode,
    Saddle,
    StableFocus,
    UnstableFocus,
    SaddleFocus,
    Centre,
    NonHyperbolic
};

struct Stability {
    int unstable = 0;      // Re > 0
    int stable = 0;        // Re < 0
    int neutral = 0;       // Re = 0 within the tolerance
    int complex_pairs = 0; // pairs with Im != 0
    EquilibriumType type = EquilibriumType::NonHyperbolic;
    bool is_stable() const { return unstable == 0 && neutral == 0; }
};

// The eigenvalues of j (square), ordered by decreasing real part, then decreasing imaginary part.
Eigen::VectorXcd sorted_eigenvalues(const Eigen::MatrixXd& j);

Stability classify(const Eigen::VectorXcd& eigenvalues, double tolerance = 1e-9);

const char* name_of(EquilibriumType type); // "stable node", "saddle", ...

} // namespace bif::cont
