#include "engine/continuation/equilibrium_finder.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace bif::cont {

namespace {

// The i-th point (from 1) of the radical-inverse sequence in the given prime base: Halton's
// coordinate, low-discrepancy in [0, 1).
double radical_inverse(std::uint64_t i, std::uint64_t base) {
    double inverse = 1.0 / double(base), factor = inverse, value = 0.0;
    for (; i > 0; i /= base, factor *= inverse)
        value += double(i % base) * factor;
    return value;
}

std::vector<std::uint64_t> first_primes(std::size_t count) {
    std::vector<std::uint64_t> primes;
    for (std::uint64_t c = 2; primes.size() < count; ++c)
        if (std::none_of(primes.begin(), primes.end(), [&](std::uint64_t q) { return c % q == 0; }))
            primes.push_back(c);
    return primes;
}

double residual_norm(const ModelEquations& eq, const double* p, const Eigen::VectorXd& y,
                     Eigen::VectorXd& f) {
    eq.rhs(y.data(), p, f.data());
    return f.allFinite() ? f.lpNorm<Eigen::Infinity>() : INFINITY;
}

bool inside(const Eigen::VectorXd& y, const EquilibriumSearch& s) {
    for (Eigen::Index i = 0; i < y.size(); ++i) {
        const double slack = 1e-9 * (1.0 + std::abs(y[i]));
        if (y[i] < s.lower[std::size_t(i)] - slack || y[i] > s.upper[std::size_t(i)] + slack) return false;
    }
    return true;
}

bool same_point(const std::vector<double>& a, const std::vector<double>& b, double tolerance) {
    double scale = 1.0, gap = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        scale = std::max(scale, 1.0 + std::abs(a[i]));
        gap = std::max(gap, std::abs(a[i] - b[i]));
    }
    return gap <= tolerance * scale;
}

void check_search(const ModelEquations& eq, const std::vector<double>& p, const EquilibriumSearch& s) {
    const std::size_t n = std::size_t(eq.dimension());
    if (s.lower.size() != n || s.upper.size() != n)
        throw std::invalid_argument("the state box needs a lower and an upper bound for each of the " +
                                    std::to_string(n) + " states");
    for (std::size_t i = 0; i < n; ++i)
        if (!(s.lower[i] <= s.upper[i]) || !std::isfinite(s.lower[i]) || !std::isfinite(s.upper[i]))
            throw std::invalid_argument("the state box's bounds must be finite with lower <= upper");
    if (s.starts < 1) throw std::invalid_argument("the equilibrium search needs at least one starting point");
    if (int(p.size()) != eq.slot_count()) throw std::invalid_argument("wrong number of parameter slots");
}

} // namespace

bool newton_equilibrium(const ModelEquations& eq, const double* p, Eigen::VectorXd& y, int max_iterations,
                        double tolerance) {
    const Eigen::Index n = y.size();
    Eigen::VectorXd f(n), trial(n), f_trial(n);
    Eigen::MatrixXd j(n, n);
    double norm = residual_norm(eq, p, y, f);
    bool polished = false;
    for (int it = 0; it < max_iterations; ++it) {
        // Converged: one more step, which Newton's quadratic convergence takes to rounding level.
        if (norm <= tolerance * (1.0 + y.lpNorm<Eigen::Infinity>())) {
            if (polished) return true;
            polished = true;
        }
        if (!std::isfinite(norm)) return false;
        // The evaluator writes row-major N x N; Eigen's default is column-major.
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> jr(n, n);
        eq.jacobian(y.data(), p, jr.data());
        j = jr;
        const Eigen::PartialPivLU<Eigen::MatrixXd> lu(j);
        const Eigen::VectorXd step = lu.solve(f);
        if (!step.allFinite()) return false;
        // Damped: the full step unless |f| grows, then halves of it.
        double lambda = 1.0, trial_norm = INFINITY;
        for (int halvings = 0; halvings < 12; ++halvings, lambda *= 0.5) {
            trial = y - lambda * step;
            trial_norm = residual_norm(eq, p, trial, f_trial);
            if (trial_norm < norm) break;
        }
        if (!(trial_norm < norm)) return polished || norm <= tolerance * (1.0 + y.lpNorm<Eigen::Infinity>());
        y = trial;
        f = f_trial;
        norm = trial_norm;
    }
    return norm <= tolerance * (1.0 + y.lpNorm<Eigen::Infinity>());
}

Equilibrium describe_equilibrium(const ModelEquations& eq, const double* p, const Eigen::VectorXd& y,
                                 double neutral_tolerance) {
    const Eigen::Index n = y.size();
    Equilibrium e;
    e.state.assign(y.data(), y.data() + n);
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> j(n, n);
    eq.jacobian(y.data(), p, j.data());
    e.eigenvalues = sorted_eigenvalues(j);
    e.stability = classify(e.eigenvalues, neutral_tolerance);
    Eigen::VectorXd f(n);
    e.residual = residual_norm(eq, p, y, f);
    return e;
}

std::vector<Equilibrium> find_equilibria(const ModelEquations& eq, const std::vector<double>& p,
                                         const EquilibriumSearch& s) {
    check_search(eq, p, s);
    const int n = eq.dimension();
    const std::vector<std::uint64_t> bases = first_primes(std::size_t(n));
    const int threads = std::clamp(s.threads > 0 ? s.threads : int(std::thread::hardware_concurrency()), 1,
                                   std::max(1, s.starts / 32));
    std::vector<std::vector<std::vector<double>>> roots(static_cast<std::size_t>(threads));
    auto work = [&](int w) {
        Eigen::VectorXd y(n);
        for (int i = w; i < s.starts; i += threads) {
            for (int k = 0; k < n; ++k) {
                const double u = radical_inverse(std::uint64_t(i) + 1, bases[std::size_t(k)]);
                y[k] = s.lower[std::size_t(k)] + u * (s.upper[std::size_t(k)] - s.lower[std::size_t(k)]);
            }
            if (newton_equilibrium(eq, p.data(), y, s.max_iterations, s.tolerance) && inside(y, s))
                roots[std::size_t(w)].emplace_back(y.data(), y.data() + n);
        }
    };
    std::vector<std::thread> pool;
    for (int w = 1; w < threads; ++w)
        pool.emplace_back(work, w);
    work(0);
    for (auto& t : pool)
        t.join();

    std::vector<std::vector<double>> all;
    for (auto& r : roots)
        all.insert(all.end(), r.begin(), r.end());
    std::sort(all.begin(), all.end());
    std::vector<std::vector<double>> distinct;
    for (auto& r : all)
        if (std::none_of(distinct.begin(), distinct.end(),
                         [&](const auto& d) { return same_point(d, r, s.merge_tolerance); }))
            distinct.push_back(std::move(r));
    std::vector<Equilibrium> out;
    for (const auto& d : distinct)
        out.push_back(describe_equilibrium(eq, p.data(), Eigen::Map<const Eigen::VectorXd>(d.data(), n),
                                           s.neutral_tolerance));
    return out;
}

} // namespace bif::cont
