#include "engine/continuation/orbit_stability.h"

#include <cmath>
#include <limits>

namespace bif::cont {
namespace {

// Beyond this log-modulus a multiplier's factor is its direction alone (1 + |mu| == |mu|).
constexpr double huge_log = 40.0;

// (z + shift) / (1 + |z|) for z given with its log-modulus.
std::complex<double> bounded_factor(std::complex<double> z, double log_modulus, double shift) {
    if (log_modulus > huge_log) return std::polar(1.0, std::arg(z));
    return (z + shift) / (1.0 + std::abs(z));
}

double product_real(const std::vector<std::complex<double>>& factors) {
    std::complex<double> p(1.0, 0.0);
    for (std::complex<double> f : factors)
        p *= f;
    return p.real(); // conjugate pairs make it real up to rounding
}

} // namespace

double OrbitStability::test_function(OrbitBifurcation kind) const {
    switch (kind) {
    case OrbitBifurcation::Fold:
        return fold;
    case OrbitBifurcation::PeriodDoubling:
        return period_doubling;
    case OrbitBifurcation::NeimarkSacker:
        return neimark_sacker;
    }
    return 1.0;
}

OrbitStability orbit_stability(const std::vector<Eigen::MatrixXd>& segments, bool has_trivial_multiplier) {
    OrbitStability s;
    s.multipliers = floquet_multipliers(segments).multipliers;
    if (has_trivial_multiplier && !s.multipliers.empty()) {
        std::size_t nearest = 0;
        for (std::size_t i = 1; i < s.multipliers.size(); ++i)
            if (std::abs(s.multipliers[i].value - 1.0) < std::abs(s.multipliers[nearest].value - 1.0))
                nearest = i;
        s.has_trivial = true;
        s.trivial = s.multipliers[nearest];
        s.multipliers.erase(s.multipliers.begin() + static_cast<std::ptrdiff_t>(nearest));
    }
    std::vector<std::complex<double>> fold, flip, pairs;
    for (std::size_t i = 0; i < s.multipliers.size(); ++i) {
        const FloquetMultiplier& a = s.multipliers[i];
        if (a.log_modulus > 0) ++s.unstable;
        fold.push_back(bounded_factor(a.value, a.log_modulus, -1.0));
        flip.push_back(bounded_factor(a.value, a.log_modulus, 1.0));
        for (std::size_t j = i + 1; j < s.multipliers.size(); ++j) {
            const FloquetMultiplier& b = s.multipliers[j];
            pairs.push_back(bounded_factor(a.value * b.value, a.log_modulus + b.log_modulus, -1.0));
        }
    }
    s.fold = product_real(fold);
    s.period_doubling = product_real(flip);
    s.neimark_sacker = product_real(pairs);
    return s;
}

bool is_neimark_sacker(const OrbitStability& s) {
    // The pair whose product is nearest 1 is the critical one; it is complex when the pair is.
    double best = std::numeric_limits<double>::infinity();
    bool complex_pair = false;
    for (std::size_t i = 0; i < s.multipliers.size(); ++i)
        for (std::size_t j = i + 1; j < s.multipliers.size(); ++j) {
            const double d = std::abs(s.multipliers[i].value * s.multipliers[j].value - 1.0);
            if (d < best) {
                best = d;
                const double scale = std::abs(s.multipliers[i].value);
                complex_pair = std::abs(s.multipliers[i].value.imag()) > 1e-6 * scale;
            }
        }
    return complex_pair;
}

const char* bifurcation_label(OrbitBifurcation kind) {
    switch (kind) {
    case OrbitBifurcation::Fold:
        return "LP";
    case OrbitBifurcation::PeriodDoubling:
        return "PD";
    case OrbitBifurcation::NeimarkSacker:
        return "NS";
    }
    return "";
}

} // namespace bif::cont
