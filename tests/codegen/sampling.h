// Seeded random evaluation points for a model, and tolerant comparison of results.
#pragma once

#include "engine/model/model.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace bif::codegen_test {

// States around the initial values, user parameters within 10% of their defaults (derived slots
// left at 0 for complete_parameters), t in [0, 10].
struct PointSampler {
    explicit PointSampler(const model::Model& m, std::uint64_t seed) : m_(m), rng_(seed) {}

    void next(std::vector<double>& y, std::vector<double>& p, double& t) {
        std::uniform_real_distribution<double> u(-1.0, 1.0);
        y.resize(m_.num_states());
        for (std::size_t i = 0; i < y.size(); ++i) {
            const double y0 = m_.states[i].initial;
            y[i] = y0 + (0.5 + 0.5 * std::fabs(y0)) * u(rng_);
        }
        p.assign(m_.num_param_slots(), 0.0);
        for (std::size_t i = 0; i < m_.num_parameters(); ++i) {
            const double p0 = m_.parameters[i].value;
            p[i] = p0 != 0.0 ? p0 * (1.0 + 0.1 * u(rng_)) : 0.1 * u(rng_);
        }
        t = 5.0 + 5.0 * u(rng_);
    }

  private:
    const model::Model& m_;
    std::mt19937_64 rng_;
};

// Equal within rel*max(|a|,|b|) + abs; two NaNs and two equal infinities agree.
inline bool close(double a, double b, double rel, double abs) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    if (a == b) return true;
    return std::fabs(a - b) <= rel * std::fmax(std::fabs(a), std::fabs(b)) + abs;
}

// First index where two arrays disagree, or -1.
template <class A, class B>
int first_mismatch(const A* a, const B* b, std::size_t n, double rel, double abs) {
    for (std::size_t i = 0; i < n; ++i) {
        if (!close(static_cast<double>(a[i]), static_cast<double>(b[i]), rel, abs))
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace bif::codegen_test
