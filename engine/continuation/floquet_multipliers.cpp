#include "engine/continuation/floquet_multipliers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace bif::cont {
namespace {

using Eigen::MatrixXd;

// Sweeps of orthogonal iteration at most; a split whose coupling decays by less than a factor 2
// over `stagnation_window` sweeps is taken as one cluster (moduli within about 10% of each other).
constexpr int max_sweeps = 80;
constexpr int stagnation_window = 6;
// Lower-left couplings of C below this count as converged; at a split the clusters' eigenvalues
// move by about the coupling, relative to their own size (see the header).
constexpr double converged_coupling = 1e-15;
constexpr double split_coupling = 1e-12;

void check_segments(const std::vector<MatrixXd>& segments) {
    if (segments.empty()) throw std::invalid_argument("floquet_multipliers: no segments");
    const auto n = segments.front().rows();
    for (const MatrixXd& a : segments)
        if (a.rows() != n || a.cols() != n)
            throw std::invalid_argument(
                "floquet_multipliers: segment Jacobians must be square and of one size");
}

// B = Q R with R upper triangular and its diagonal non-negative (the sign moved into Q), so that
// the diagonal products below are products of moduli.
void positive_qr(const MatrixXd& b, MatrixXd& q, MatrixXd& r) {
    const auto n = b.rows();
    Eigen::HouseholderQR<MatrixXd> qr(b);
    q = qr.householderQ() * MatrixXd::Identity(n, n);
    r = qr.matrixQR().triangularView<Eigen::Upper>();
    for (Eigen::Index k = 0; k < n; ++k) {
        if (r(k, k) < 0) {
            r.row(k) *= -1.0;
            q.col(k) *= -1.0;
        }
    }
}

// c[k] = max |C(i, j)| over i >= k > j: how far span(Z_0[:, :k]) is from invariant.
std::vector<double> lower_couplings(const MatrixXd& c) {
    const auto n = c.rows();
    std::vector<double> out(static_cast<std::size_t>(n), 0.0);
    for (Eigen::Index k = 1; k < n; ++k)
        out[static_cast<std::size_t>(k)] = c.bottomLeftCorner(n - k, k).cwiseAbs().maxCoeff();
    return out;
}

bool settled(const std::vector<std::vector<double>>& history) {
    const std::vector<double>& now = history.back();
    const bool window = history.size() > static_cast<std::size_t>(stagnation_window);
    for (std::size_t k = 1; k < now.size(); ++k) {
        if (now[k] < converged_coupling) continue;
        if (!window) return false;
        const double before = history[history.size() - 1 - stagnation_window][k];
        if (now[k] < 0.5 * before) return false; // still converging
    }
    return true;
}

// The multipliers of the diagonal cluster [a, a + s): eigenvalues of C_jj (R_m)_jj ... (R_1)_jj.
void cluster_multipliers(const MatrixXd& c, const std::vector<MatrixXd>& r, Eigen::Index a, Eigen::Index s,
                         std::vector<FloquetMultiplier>& out) {
    if (s == 1) {
        double log_modulus = std::log(std::abs(c(a, a)));
        for (const MatrixXd& ri : r)
            log_modulus += std::log(ri(a, a));
        const double sign = c(a, a) < 0 ? -1.0 : 1.0;
        out.push_back({std::complex<double>(sign * std::exp(log_modulus), 0.0), log_modulus});
        return;
    }
    MatrixXd p = MatrixXd::Identity(s, s);
    double log_scale = 0.0;
    for (const MatrixXd& ri : r) {
        p = ri.block(a, a, s, s).triangularView<Eigen::Upper>() * p;
        const double size = p.cwiseAbs().maxCoeff();
        if (!(size > 0) || !std::isfinite(size)) break;
        p /= size;
        log_scale += std::log(size);
    }
    const MatrixXd block = c.block(a, a, s, s) * p;
    Eigen::EigenSolver<MatrixXd> eig(block, false);
    for (Eigen::Index k = 0; k < s; ++k) {
        const std::complex<double> lambda = eig.eigenvalues()(k);
        const double log_modulus = std::log(std::abs(lambda)) + log_scale;
        out.push_back({lambda * std::exp(log_scale), log_modulus});
    }
}

} // namespace

FloquetResult floquet_multipliers(const std::vector<MatrixXd>& segments) {
    check_segments(segments);
    const auto n = segments.front().rows();
    FloquetResult result;
    if (n == 0) return result;

    MatrixXd z = MatrixXd::Identity(n, n);
    std::vector<MatrixXd> r(segments.size());
    MatrixXd c, q;
    std::vector<std::vector<double>> history;
    for (int sweep = 1; sweep <= max_sweeps; ++sweep) {
        const MatrixXd z0 = z;
        for (std::size_t i = 0; i < segments.size(); ++i) {
            positive_qr(segments[i] * z, q, r[i]);
            z = q;
        }
        c = z0.transpose() * z;
        result.sweeps = sweep;
        history.push_back(lower_couplings(c));
        if (settled(history)) break;
    }

    const std::vector<double>& coupling = history.back();
    Eigen::Index start = 0;
    for (Eigen::Index k = 1; k <= n; ++k) {
        if (k < n && coupling[static_cast<std::size_t>(k)] > split_coupling) continue;
        cluster_multipliers(c, r, start, k - start, result.multipliers);
        start = k;
    }
    std::stable_sort(
        result.multipliers.begin(), result.multipliers.end(),
        [](const FloquetMultiplier& x, const FloquetMultiplier& y) { return x.log_modulus > y.log_modulus; });
    return result;
}

MatrixXd monodromy_matrix(const std::vector<MatrixXd>& segments) {
    check_segments(segments);
    MatrixXd m = segments.front();
    for (std::size_t i = 1; i < segments.size(); ++i)
        m = segments[i] * m;
    return m;
}

std::vector<std::complex<double>> explicit_product_multipliers(const std::vector<MatrixXd>& segments) {
    const MatrixXd m = monodromy_matrix(segments);
    Eigen::EigenSolver<MatrixXd> eig(m, false);
    std::vector<std::complex<double>> out(eig.eigenvalues().data(), eig.eigenvalues().data() + m.rows());
    std::stable_sort(out.begin(), out.end(), [](std::complex<double> x, std::complex<double> y) {
        return std::abs(x) > std::abs(y);
    });
    return out;
}

} // namespace bif::cont
