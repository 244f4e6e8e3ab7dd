// Lorenz ensemble, RK4 with a fixed step, on the CPU: Bifscope's CPU backend (the generated model
// compiled natively together with the per-system study program: a bifurcation study with one
// stroboscopic section at the end time) against Boost.Odeint's runge_kutta4 and a hand-written
// loop, all on the same machine with the same threads (systems split into equal contiguous blocks
// for the two references; Bifscope's own scheduler for Bifscope). Prints system-steps per second,
// the ratios, and the largest difference between the final states.
//
//   bench_cpu_lorenz_rk4 [systems=16384] [steps=10000] [threads=all]
//
// sigma = 10, beta = 8/3, rho = linspace(0, 21, systems) (the range of the CUDA benchmark: no
// chaos, so the three final states must agree to rounding), from (1, 0, 0), step 0.001. This file
// is compiled with -O3 -march=native, the flags the backend's native path uses.
#include "engine/cpu/cpu_backend.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <array>
#include <boost/numeric/odeint.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace bif;

namespace {

constexpr double step = 0.001;
constexpr double sigma = 10.0, beta = 8.0 / 3.0;

using State = std::array<double, 3>;

double rho_of(std::size_t i, std::size_t n) {
    return n == 1 ? 0.0 : 21.0 * double(i) / double(n - 1);
}

// Runs body(first, last) on `threads` threads over equal contiguous blocks of [0, n).
void parallel_blocks(std::size_t n, unsigned threads,
                     const std::function<void(std::size_t, std::size_t)>& body) {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        const std::size_t first = n * t / threads, last = n * (t + 1) / threads;
        pool.emplace_back(body, first, last);
    }
    for (auto& t : pool)
        t.join();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct LorenzSystem {
    double rho;
    void operator()(const State& y, State& dy, double) const {
        dy[0] = sigma * (y[1] - y[0]);
        dy[1] = y[0] * (rho - y[2]) - y[1];
        dy[2] = y[0] * y[1] - beta * y[2];
    }
};

double run_odeint(std::vector<State>& out, int steps, unsigned threads) {
    const auto start = std::chrono::steady_clock::now();
    parallel_blocks(out.size(), threads, [&](std::size_t first, std::size_t last) {
        boost::numeric::odeint::runge_kutta4<State> rk4;
        for (std::size_t i = first; i < last; ++i) {
            const LorenzSystem system{rho_of(i, out.size())};
            State y{1.0, 0.0, 0.0};
            double t = 0.0;
            for (int s = 0; s < steps; ++s, t += step)
                rk4.do_step(system, y, t, step);
            out[i] = y;
        }
    });
    return seconds_since(start);
}

inline void lorenz(double rho, const double* y, double* f) {
    f[0] = sigma * (y[1] - y[0]);
    f[1] = y[0] * (rho - y[2]) - y[1];
    f[2] = y[0] * y[1] - beta * y[2];
}

double run_handwritten(std::vector<State>& out, int steps, unsigned threads) {
    const auto start = std::chrono::steady_clock::now();
    parallel_blocks(out.size(), threads, [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
            const double rho = rho_of(i, out.size());
            double y[3] = {1.0, 0.0, 0.0}, k1[3], k2[3], k3[3], k4[3], tmp[3];
            for (int s = 0; s < steps; ++s) {
                lorenz(rho, y, k1);
                for (int c = 0; c < 3; ++c)
                    tmp[c] = y[c] + 0.5 * step * k1[c];
                lorenz(rho, tmp, k2);
                for (int c = 0; c < 3; ++c)
                    tmp[c] = y[c] + 0.5 * step * k2[c];
                lorenz(rho, tmp, k3);
                for (int c = 0; c < 3; ++c)
                    tmp[c] = y[c] + step * k3[c];
                lorenz(rho, tmp, k4);
                for (int c = 0; c < 3; ++c)
                    y[c] += step / 6.0 * (k1[c] + 2.0 * k2[c] + 2.0 * k3[c] + k4[c]);
            }
            out[i] = {y[0], y[1], y[2]};
        }
    });
    return seconds_since(start);
}

std::shared_ptr<const study::ResolvedStudy> lorenz_study(std::size_t n, int steps) {
    char end_time[64];
    std::snprintf(end_time, sizeof end_time, "%.17g", steps * step);
    const std::string json = R"({"bifscope_study": 1, "model": {"path": "lorenz.ode"},
      "parameters": {"sigma": 10, "beta": 2.6666666666666667}, "initial": {"x": 1, "y": 0, "z": 0},
      "sweep": [{"parameter": "rho", "from": 0, "to": 21, "count": )" +
                             std::to_string(n) + R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": ")" +
                             end_time + R"("},
                   "transient_sections": 0, "recorded_sections": 1, "record": ["x", "y", "z"]},
      "solver": {"method": "rk4", "initial_step": 0.001}, "precision": "double"})";
    auto read = study::read_study_json(json);
    if (!read.study || study::has_errors(read.problems)) throw std::runtime_error("bad benchmark study");
    auto r = study::resolve_study(*read.study, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/models");
    if (!r.resolved) throw std::runtime_error("the benchmark study does not resolve");
    return r.resolved;
}

double run_bifscope(std::vector<State>& out, int steps, unsigned threads, std::string& path) {
    const auto s = lorenz_study(out.size(), steps);
    auto backend = cpu::make_cpu_backend();
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {}, threads);
    const study::Result r = backend->run(*s, control);
    path = study::name_of(r.info.code_path);
    for (std::size_t i = 0; i < out.size(); ++i)
        for (int c = 0; c < 3; ++c)
            out[i][std::size_t(c)] = r.points.value(i, 0, std::size_t(c));
    return r.info.run_seconds;
}

// The best of `runs` timings (the least disturbed by other work on the machine).
double best_of(int runs, const std::function<double()>& run) {
    double best = 1e300;
    for (int i = 0; i < runs; ++i)
        best = std::min(best, run());
    return best;
}

double largest_difference(const std::vector<State>& a, const std::vector<State>& b) {
    double d = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (int c = 0; c < 3; ++c)
            d = std::max(d, std::abs(a[i][std::size_t(c)] - b[i][std::size_t(c)]) /
                                (1.0 + std::abs(a[i][std::size_t(c)])));
    return d;
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t systems = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 16384;
    const int steps = argc > 2 ? std::atoi(argv[2]) : 10000;
    const unsigned threads =
        argc > 3 ? unsigned(std::atoi(argv[3])) : std::max(1u, std::thread::hardware_concurrency());
    if (systems == 0 || steps <= 0 || threads == 0) {
        std::fprintf(stderr, "usage: bench_cpu_lorenz_rk4 [systems] [steps] [threads]\n");
        return 2;
    }
    std::vector<State> bif_out(systems), odeint_out(systems), hand_out(systems);
    std::string path;
    run_bifscope(bif_out, std::min(steps, 100), threads, path); // compile (or load) the module once
    const double work = double(systems) * double(steps);
    const int runs = 3;
    const double t_bif = best_of(runs, [&] { return run_bifscope(bif_out, steps, threads, path); });
    const double t_odeint = best_of(runs, [&] { return run_odeint(odeint_out, steps, threads); });
    const double t_hand = best_of(runs, [&] { return run_handwritten(hand_out, steps, threads); });
    std::printf("Lorenz RK4, %zu systems x %d steps, %u threads (best of %d)\n", systems, steps, threads,
                runs);
    std::printf("  bifscope cpu (%s)  %8.3f s  %.3e system-steps/s\n", path.c_str(), t_bif, work / t_bif);
    std::printf("  boost odeint rk4     %8.3f s  %.3e system-steps/s\n", t_odeint, work / t_odeint);
    std::printf("  hand-written loop    %8.3f s  %.3e system-steps/s\n", t_hand, work / t_hand);
    std::printf("  speed ratio bifscope/odeint %.2f, bifscope/hand-written %.2f\n", t_odeint / t_bif,
                t_hand / t_bif);
    std::printf("  largest relative difference of final states: vs odeint %.2e, vs hand-written %.2e\n",
                largest_difference(bif_out, odeint_out), largest_difference(bif_out, hand_out));
    return 0;
}
