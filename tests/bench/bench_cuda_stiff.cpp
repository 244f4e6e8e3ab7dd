// The GPU stiff-solver benchmark of Utkarsh et al. (issue 36): Robertson's equations with
// k3 = linspace(0, 1e4, N) (k1 = 0.04, k2 = 3e7), y0 = (1, 0, 0), t from 0 to 1e5, initial step 1e-3,
// rtol 1e-3, atol 1e-6, N = 2^20 and 8388608, float and double, Rosenbrock23. The Bifscope ensemble
// kernel (a bifurcation study with one stroboscopic section at t = 1e5) against the hand-written
// per-thread kernel (handwritten/robertson_rosenbrock23.cu, same formulas, norm and controller),
// kernel times with CUDA events (median of 3 after a warm-up); then the whole study through the job
// API on the CUDA backend, warm (module cached, second run), end to end. Prints the times, their
// ratio, the hand kernel's accepted steps, both kernels' failed systems and the largest difference
// between the final states. BENCH_STIFF_SIZES="20 23" (log2 of N). Exits 77
// without a GPU.
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "handwritten/bench_support.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

using namespace bif;

namespace {

constexpr double t_end = 1e5, rtol = 1e-3, atol = 1e-6, h0 = 1e-3;

std::string robertson_study(std::size_t n, bool single, const char* method) {
    std::ostringstream json;
    json << R"({"bifscope_study": 1, "model": {"path": "../models/robertson.ode"},
      "parameters": {"k1": 0.04, "k2": 3e7}, "initial": {"y1": 1, "y2": 0, "y3": 0},
      "sweep": [{"parameter": "k3", "from": 0, "to": 1e4, "count": )"
         << n << R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1e5"},
                   "transient_sections": 0, "recorded_sections": 1, "record": ["y1", "y2", "y3"]},
      "solver": {"method": ")"
         << method << R"(", "rtol": 1e-3, "atol": 1e-6, "initial_step": 1e-3, "bound": 0, "max_step": 0},
      "precision": ")"
         << (single ? "float" : "double") << "\"}";
    return json.str();
}

template <class Real>
struct RobertsonSettings {
    Real k1, k2, t_end, rtol, atol, h0, min_step;
    int max_attempts;
};

// The study through the job API on the CUDA backend: the second of two runs (the first compiles).
double job_seconds(const std::string& json) {
    const auto study = bench::resolve_json(json);
    double seconds = 0.0;
    for (int run = 0; run < 2; ++run) {
        jobs::JobOptions options;
        options.backend = study::BackendChoice::Cuda;
        const auto start = std::chrono::steady_clock::now();
        auto job = jobs::submit(jobs::installed_backends(), study, options);
        job->wait();
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (job->state() != jobs::JobState::Succeeded) throw std::runtime_error("job: " + job->failure());
    }
    return seconds;
}

template <class Real>
void run_case(const cuda::Context& context, std::size_t n) {
    const bool single = sizeof(Real) == 4;
    const std::string json = robertson_study(n, single, "rosenbrock23");
    bench::BifscopeEnsemble bifscope(context, bench::resolve_json(json),
                                     single ? codegen::Precision::Float : codegen::Precision::Double);
    const double bif_ms = bifscope.time_ms(3);
    const ensemble::BatchArrays& out = bifscope.results();

    const cuda::Module hand_module = bench::load_handwritten(context, "robertson_rosenbrock23.cu");
    const cuda::Kernel hand = hand_module.kernel(single ? "hand_robertson_rosenbrock23_float"
                                                        : "hand_robertson_rosenbrock23_double");
    std::vector<Real> k3(n);
    for (std::size_t i = 0; i < n; ++i)
        k3[i] = Real(out.axis_values[i]);
    cuda::DeviceBuffer<Real> k3_device(context, n), hand_out(context, 3 * n);
    cuda::DeviceBuffer<unsigned int> counts(context, 3 * n);
    k3_device.upload(k3);
    const cuda::Stream stream(context);
    const auto shape = cuda::LaunchShape::linear(n, 128);
    const unsigned long long count = n;
    const RobertsonSettings<Real> s{Real(0.04), Real(3e7), Real(t_end), Real(rtol),
                                    Real(atol), Real(h0),  Real(1e-12), 100000000};
    const double hand_ms = bench::median_ms(
        context, stream, 3, [] {},
        [&] { hand.launch(shape, stream, k3_device, hand_out, counts, count, s); });
    const std::vector<Real> hand_values = hand_out.to_vector();
    const std::vector<unsigned int> hand_counts = counts.to_vector();

    double worst = 0.0, steps = 0.0;
    std::size_t bif_failed = 0, hand_failed = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (out.status[i] != 1) ++bif_failed;
        if (hand_counts[2 * n + i] != 0) ++hand_failed;
        steps += hand_counts[i];
        for (int c = 0; c < 3; ++c) {
            const double a = out.point(i, 0, c), b = double(hand_values[std::size_t(c) * n + i]);
            worst = std::max(worst, std::fabs(a - b) / (atol + rtol * std::fabs(b)));
        }
    }
    const double job_s = job_seconds(json);
    std::printf(
        "robertson rosenbrock23 %-6s N=%-8zu bifscope %8.3f ms | hand %8.3f ms | ratio hand/bifscope %.3f | "
        "hand mean accepted steps %.1f | failed bifscope %zu hand %zu | max diff %.2f tolerances | "
        "warm job %.3f s = %.1fx the hand kernel\n",
        single ? "float" : "double", n, bif_ms, hand_ms, hand_ms / bif_ms, steps / double(n), bif_failed,
        hand_failed, worst, job_s, job_s * 1e3 / hand_ms);
    bench::print_kernel("bifscope advance kernel", bifscope.program().advance_kernel());
    bench::print_kernel("hand-written kernel", hand);
    std::fflush(stdout);
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    std::vector<int> sizes{20, 23};
    if (const char* list = std::getenv("BENCH_STIFF_SIZES")) {
        sizes.clear();
        std::istringstream in(list);
        for (int v; in >> v;)
            sizes.push_back(v);
    }
    try {
        const cuda::Context context(0);
        std::printf("device %s\n", context.device().summary().c_str());
        for (int log2n : sizes) {
            const std::size_t n = std::size_t(1) << log2n; // 2^23 = 8388608, the paper's largest
            run_case<float>(context, n);
            run_case<double>(context, n);
        }
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
