// Floquet multipliers of a periodic orbit from its segment Jacobians, accurate when the
// multipliers span many orders of magnitude.
//
// The monodromy matrix M = A_m ... A_2 A_1 (A_i the Jacobian of the flow, or of the map, over
// segment i) is never formed. Its explicit product carries an absolute rounding error of about
// eps |M|, which swamps every multiplier smaller than eps times the largest (an unstable orbit's
// contracting directions, a strongly damped mode). Instead, orthogonal iteration runs on the
// product in factored form, the periodic QR idea (Bojanczyk, Golub & Van Dooren, Proc. SPIE 1770
// (1992) 31; Lust, Int. J. Bifurcation Chaos 11 (2001) 2389 for its use on orbits):
//   A_i Z_{i-1} = Z_i R_i   (QR, R_i upper triangular with a non-negative diagonal), i = 1..m,
// repeated with Z_0 <- Z_m until the leading subspaces stop moving. Then Z_0^T M Z_0 = C R with
// R = R_m ... R_1 upper triangular and C = Z_0^T Z_m block diagonal up to what has not converged.
// Where C's lower-left block below index k vanishes, M's spectrum splits there; each diagonal
// cluster's multipliers are the eigenvalues of C_jj (R_m)_jj ... (R_1)_jj, the product of small
// blocks, scaled as it is formed. A cluster of one multiplier is a sign times a product of
// positive numbers: exact to the rounding of its factors, whatever the other multipliers are.
// Multipliers whose moduli differ by less than the iteration can resolve stay in one cluster,
// where the explicit product is harmless because their magnitudes are alike.
#pragma once

#include <Eigen/Dense>
#include <complex>
#include <vector>

namespace bif::cont {

struct FloquetMultiplier {
    std::complex<double> value; // underflows to 0 / overflows to inf where the modulus does
    double log_modulus = 0.0;   // log |mu|, finite even where value is not representable
};

struct FloquetResult {
    std::vector<FloquetMultiplier> multipliers; // by decreasing modulus
    int sweeps = 0;                             // orthogonal-iteration sweeps used
};

// Segments in the order the orbit visits them; each square, all of one size. Throws
// std::invalid_argument for an empty list or mismatched sizes.
FloquetResult floquet_multipliers(const std::vector<Eigen::MatrixXd>& segments);

// M = A_m ... A_1 multiplied out: the period map's Jacobian, for Newton and the test functions,
// where its rounding does no harm (the multipliers come from the factors, above). Throws as above.
Eigen::MatrixXd monodromy_matrix(const std::vector<Eigen::MatrixXd>& segments);

// The eigenvalues of the explicitly multiplied monodromy matrix, by decreasing modulus: the method
// the one above replaces, kept as a reference for tests and comparisons.
std::vector<std::complex<double>> explicit_product_multipliers(const std::vector<Eigen::MatrixXd>& segments);

} // namespace bif::cont
