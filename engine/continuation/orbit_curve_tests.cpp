#include "engine/continuation/orbit_curve_tests.h"

#include <cmath>
#include <complex>
#include <limits>

namespace bif::cont {

namespace {

using Complex = std::complex<double>;

Complex squashed(Complex z) {
    const double r = std::abs(z);
    if (!std::isfinite(r)) return std::polar(1.0, std::arg(z));
    return z / (1.0 + r);
}

std::vector<Complex> values_of(const OrbitStability& s) {
    std::vector<Complex> mu;
    for (const FloquetMultiplier& m : s.multipliers)
        mu.push_back(m.value);
    return mu;
}

// The index of the multiplier nearest `target`; -1 for none.
int nearest(const std::vector<Complex>& mu, Complex target) {
    int best = -1;
    for (int i = 0; i < int(mu.size()); ++i)
        if (best < 0 || std::abs(mu[std::size_t(i)] - target) < std::abs(mu[std::size_t(best)] - target))
            best = i;
    return best;
}

// The pair (i < j) whose product is nearest 1, among those not excluded; {-1, -1} for none.
std::pair<int, int> critical_pair(const std::vector<Complex>& mu, int excluded = -1) {
    std::pair<int, int> best{-1, -1};
    double distance = std::numeric_limits<double>::infinity();
    for (int i = 0; i < int(mu.size()); ++i)
        for (int j = i + 1; j < int(mu.size()); ++j) {
            if (i == excluded || j == excluded) continue;
            const double d = std::abs(mu[std::size_t(i)] * mu[std::size_t(j)] - 1.0);
            if (d < distance) {
                distance = d;
                best = {i, j};
            }
        }
    return best;
}

// prod over the multipliers but `skip_a`, `skip_b` of squashed(mu + shift)
double product_of_shifted(const std::vector<Complex>& mu, double shift, int skip_a, int skip_b = -1) {
    Complex p = 1.0;
    for (int i = 0; i < int(mu.size()); ++i)
        if (i != skip_a && i != skip_b) p *= squashed(mu[std::size_t(i)] + shift);
    return p.real(); // conjugate pairs make it real up to rounding
}

// prod over the pairs i < j, both not `skip`, of squashed(mu_i mu_j - 1)
double product_of_pairs(const std::vector<Complex>& mu, int skip) {
    Complex p = 1.0;
    for (int i = 0; i < int(mu.size()); ++i)
        for (int j = i + 1; j < int(mu.size()); ++j)
            if (i != skip && j != skip) p *= squashed(mu[std::size_t(i)] * mu[std::size_t(j)] - 1.0);
    return p.real();
}

bool complex_pair(const std::vector<Complex>& mu, std::pair<int, int> pair) {
    if (pair.first < 0) return false;
    const Complex a = mu[std::size_t(pair.first)];
    return std::abs(a.imag()) > 1e-6 * std::max(1.0, std::abs(a));
}

} // namespace

const std::vector<std::string>& codim2_labels(OrbitBifurcation curve) {
    static const std::vector<std::string> fold = {"R1", "LPPD", "LPNS"};
    static const std::vector<std::string> flip = {"R2", "LPPD", "PDNS"};
    static const std::vector<std::string> torus = {"R1", "R2", "R3", "R4", "LPNS", "PDNS"};
    switch (curve) {
    case OrbitBifurcation::Fold:
        return fold;
    case OrbitBifurcation::PeriodDoubling:
        return flip;
    case OrbitBifurcation::NeimarkSacker:
        return torus;
    }
    return fold;
}

double neimark_sacker_cosine(const OrbitStability& s) {
    const std::vector<Complex> mu = values_of(s);
    const auto [i, j] = critical_pair(mu);
    if (i < 0) return std::numeric_limits<double>::quiet_NaN();
    return 0.5 * (mu[std::size_t(i)] + mu[std::size_t(j)]).real();
}

Vector codim2_tests(OrbitBifurcation curve, const OrbitStability& s) {
    const std::vector<Complex> mu = values_of(s);
    Vector v(Eigen::Index(codim2_labels(curve).size()));
    switch (curve) {
    case OrbitBifurcation::Fold: {
        const int critical = nearest(mu, 1.0);
        v << product_of_shifted(mu, -1.0, critical), product_of_shifted(mu, 1.0, -1),
            product_of_pairs(mu, critical);
        break;
    }
    case OrbitBifurcation::PeriodDoubling: {
        const int critical = nearest(mu, -1.0);
        v << product_of_shifted(mu, 1.0, critical), product_of_shifted(mu, -1.0, -1),
            product_of_pairs(mu, critical);
        break;
    }
    case OrbitBifurcation::NeimarkSacker: {
        const double kappa = neimark_sacker_cosine(s);
        const auto [i, j] = critical_pair(mu);
        v << kappa - 1.0, kappa + 1.0, kappa + 0.5, kappa, product_of_shifted(mu, -1.0, i, j),
            product_of_shifted(mu, 1.0, i, j);
        break;
    }
    }
    return v;
}

bool accept_codim2(OrbitBifurcation curve, int k, const OrbitStability& s) {
    const std::string& label = codim2_labels(curve)[std::size_t(k)];
    if (curve == OrbitBifurcation::NeimarkSacker || (label != "LPNS" && label != "PDNS")) return true;
    const std::vector<Complex> mu = values_of(s);
    const int critical = nearest(mu, curve == OrbitBifurcation::Fold ? 1.0 : -1.0);
    return complex_pair(mu, critical_pair(mu, critical));
}

} // namespace bif::cont
