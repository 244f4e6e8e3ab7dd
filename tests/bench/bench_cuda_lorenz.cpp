// Lorenz, RK4, 1000 steps of 0.001 from (1, 0, 0), rho = linspace(0, 21, N): the Bifscope ensemble
// kernel (generated model + the per-system study program, a bifurcation study with one stroboscopic
// section at t = 1) against the hand-written kernel (handwritten/lorenz_rk4.cu), N = 2^20 and 2^23,
// double and float, timed with CUDA events (median of 5 after a warm-up). Prints system-steps/s,
// the ratio, the fraction of the device's FP64 / FP32 peak at 71 flops per step, and the largest
// difference between the two final states. Exits 77 without a GPU.
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "handwritten/bench_support.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

using namespace bif;

namespace {

// BENCH_LORENZ_STEPS=n: steps per system other than the issue's 1000 (a longer run shows how much
// of the difference is per system rather than per step)
int steps = 1000;
constexpr double step = 0.001;
constexpr double flops_per_step = 71.0; // see handwritten/lorenz_rk4.cu

// "bound": 0 overrides the model's @ bound=1000: the hand-written kernel tests no bound either.
std::string lorenz_study(std::size_t n, bool single) {
    return R"({"bifscope_study": 1, "model": {"path": "../models/lorenz.ode"},
      "initial": {"x": 1, "y": 0, "z": 0},
      "sweep": [{"parameter": "rho", "from": 0, "to": 21, "count": )" +
           std::to_string(n) + R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": ")" +
           std::to_string(steps * step) + R"("},
                   "transient_sections": 0, "recorded_sections": 1, "record": ["x", "y", "z"]},
      "solver": {"method": "rk4", "initial_step": 0.001, "bound": 0},
      "precision": ")" +
           (single ? std::string("float") : std::string("double")) + "\"}";
}

// Peak flops per second of the device: FP32 at 128 FMA per clock per SM on sm_70..sm_90 (2 flops
// each), FP64 at the device's FP32:FP64 ratio.
double fp32_peak(const cuda::DeviceInfo& d) {
    return double(d.multiprocessors) * double(d.clock_khz) * 1e3 * 128.0 * 2.0;
}

template <class Real>
void run_case(const cuda::Context& context, std::size_t n, int min_blocks) {
    const bool single = sizeof(Real) == 4;
    const cuda::DeviceInfo& device = context.device();
    bench::BifscopeEnsemble bifscope(context, bench::resolve_json(lorenz_study(n, single)),
                                     single ? codegen::Precision::Float : codegen::Precision::Double,
                                     min_blocks);
    const double bif_ms = bifscope.time_ms(5);
    const ensemble::BatchArrays& out = bifscope.results();

    const cuda::Module hand_module = bench::load_handwritten(context, "lorenz_rk4.cu");
    const cuda::Kernel hand = hand_module.kernel(single ? "hand_lorenz_rk4_float" : "hand_lorenz_rk4_double");
    std::vector<Real> rho(n);
    for (std::size_t i = 0; i < n; ++i)
        rho[i] = Real(out.axis_values[i]);
    cuda::DeviceBuffer<Real> rho_device(context, n), hand_out(context, 3 * n);
    rho_device.upload(rho);
    const cuda::Stream stream(context);
    const auto shape = cuda::LaunchShape::linear(n, 128);
    const unsigned long long count = n;
    const double hand_ms = bench::median_ms(
        context, stream, 5, [] {},
        [&] {
            hand.launch(shape, stream, rho_device, hand_out, count, steps, Real(step), Real(10),
                        Real(8.0 / 3.0));
        });
    const std::vector<Real> hand_values = hand_out.to_vector();
    const cuda::Kernel thread_params = hand_module.kernel(single ? "hand_lorenz_rk4_float_thread_params"
                                                                 : "hand_lorenz_rk4_double_thread_params");
    cuda::DeviceBuffer<Real> sigma_device(context, n), beta_device(context, n);
    sigma_device.upload(std::vector<Real>(n, Real(10)));
    beta_device.upload(std::vector<Real>(n, Real(8.0 / 3.0)));
    const double thread_params_ms = bench::median_ms(
        context, stream, 5, [] {},
        [&] {
            thread_params.launch(shape, stream, rho_device, sigma_device, beta_device, hand_out, count, steps,
                                 Real(step));
        });
    const int bif_blocks = bifscope.program().advance_kernel().max_active_blocks_per_multiprocessor(128);
    const auto matched = bench::shape_at_occupancy(hand, n, bif_blocks);
    const double matched_ms = bench::median_ms(
        context, stream, 5, [] {},
        [&] {
            hand.launch(matched, stream, rho_device, hand_out, count, steps, Real(step), Real(10),
                        Real(8.0 / 3.0));
        });

    // largest difference relative to the attractor's scale (|state| + 1)
    double worst = 0.0;
    std::size_t failed = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (out.status[i] != 1) ++failed;
        for (int c = 0; c < 3; ++c) {
            const double a = out.point(i, 0, c), b = double(hand_values[std::size_t(c) * n + i]);
            worst = std::max(worst, std::fabs(a - b) / (1.0 + std::fabs(b)));
        }
    }
    const double system_steps = double(n) * steps;
    const double peak = single ? fp32_peak(device) : fp32_peak(device) / device.fp32_to_fp64_ratio;
    std::printf(
        "lorenz rk4 %-6s N=2^%-2d min_blocks %2d  bifscope %8.3f ms %.3e steps/s %5.1f%% peak | hand %8.3f "
        "ms %.3e "
        "steps/s %5.1f%% peak | ratio hand/bifscope %.3f | max rel diff %.1e | not ok %zu\n",
        single ? "float" : "double", int(std::lround(std::log2(double(n)))), min_blocks, bif_ms,
        system_steps / (bif_ms * 1e-3), 100.0 * flops_per_step * system_steps / (bif_ms * 1e-3) / peak,
        hand_ms, system_steps / (hand_ms * 1e-3),
        100.0 * flops_per_step * system_steps / (hand_ms * 1e-3) / peak, hand_ms / bif_ms, worst, failed);
    bench::print_kernel("bifscope advance kernel", bifscope.program().advance_kernel());
    bench::print_kernel("hand-written kernel", hand);
    std::printf(
        "  hand-written at the bifscope kernel's %d blocks/SM (%d with %u B shared): %8.3f ms, ratio %.3f\n",
        bif_blocks, hand.max_active_blocks_per_multiprocessor(128, matched.shared_bytes),
        matched.shared_bytes, matched_ms, matched_ms / bif_ms);
    std::printf("  hand-written with sigma and beta per system (registers): %8.3f ms, ratio %.3f\n",
                thread_params_ms, thread_params_ms / bif_ms);
    std::fflush(stdout);
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    if (const char* n = std::getenv("BENCH_LORENZ_STEPS")) steps = std::max(1, std::atoi(n));
    try {
        const cuda::Context context(0);
        const auto& d = context.device();
        std::printf("device %s; FP32 peak %.1f TFLOP/s, FP64 peak %.1f TFLOP/s (%d SMs at %d MHz)\n",
                    d.summary().c_str(), fp32_peak(d) / 1e12, fp32_peak(d) / d.fp32_to_fp64_ratio / 1e12,
                    d.multiprocessors, d.clock_khz / 1000);
        // BENCH_MIN_BLOCKS="a b c": kernel register bounds to compare at 2^20 (the backend's default
        // runs at both sizes)
        std::vector<int> variants;
        if (const char* list = std::getenv("BENCH_MIN_BLOCKS")) {
            std::istringstream in(list);
            for (int v; in >> v;)
                variants.push_back(v);
        }
        for (std::size_t n : {std::size_t(1) << 20, std::size_t(1) << 23}) {
            run_case<double>(context, n, cuda::ensemble_min_blocks_default);
            run_case<float>(context, n, cuda::ensemble_min_blocks_default);
            if (n > (std::size_t(1) << 20)) continue;
            for (int v : variants) {
                run_case<double>(context, n, v);
                run_case<float>(context, n, v);
            }
        }
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
