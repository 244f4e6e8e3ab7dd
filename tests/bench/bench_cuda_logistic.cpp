// The logistic map's orbit diagram on the GPU (issue 12): 2^20 values of r in [2.5, 4], 10^4
// transient iterates, 10^3 recorded, double and float: the Bifscope ensemble kernel (a bifurcation
// study of resources/models/logistic.ode, every iterate a section point) against the hand-written
// kernel (handwritten/logistic_map.cu), timed with CUDA events (median of 3 after a warm-up), and
// the recorded iterates compared. Exits 77 without a GPU.
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "handwritten/bench_support.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace bif;

namespace {

// BENCH_LOGISTIC_ITERATES="T R": other transient and recorded counts (to time the two phases apart)
int iterates(int which, int otherwise) {
    const char* text = std::getenv("BENCH_LOGISTIC_ITERATES");
    int counts[2] = {0, 0};
    if (!text || std::sscanf(text, "%d %d", &counts[0], &counts[1]) != 2) return otherwise;
    return counts[which];
}
const int transient = iterates(0, 10000);
const int recorded = iterates(1, 1000);

std::string logistic_study(std::size_t n, bool single) {
    return R"({"bifscope_study": 1, "model": {"path": "../models/logistic.ode"}, "initial": {"x": 0.2},
      "sweep": [{"parameter": "r", "from": 2.5, "to": 4, "count": )" +
           std::to_string(n) + R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                   "transient_sections": )" +
           std::to_string(transient) + R"(, "recorded_sections": )" + std::to_string(recorded) +
           R"(, "record": ["x"]},
      "solver": {"method": "iteration", "initial_step": 1},
      "precision": ")" +
           (single ? "float" : "double") + R"("})";
}

template <class Real>
int compare(const cuda::Context& context, std::size_t n, bool single) {
    const auto precision = single ? codegen::Precision::Float : codegen::Precision::Double;
    // BENCH_MIN_BLOCKS=B: the kernel's register bound (blocks per multiprocessor) instead of the backend's
    const char* bound = std::getenv("BENCH_MIN_BLOCKS");
    bench::BifscopeEnsemble bifscope(context, bench::resolve_json(logistic_study(n, single)), precision,
                                     bound ? std::atoi(bound) : cuda::ensemble_min_blocks_default);
    const double bif_ms = bifscope.time_ms(3);
    const ensemble::BatchArrays& out = bifscope.results();

    const cuda::Module module = bench::load_handwritten(context, "logistic_map.cu");
    const cuda::Kernel hand = module.kernel(single ? "hand_logistic_float" : "hand_logistic_double");
    std::vector<Real> r(n);
    for (std::size_t i = 0; i < n; ++i)
        r[i] = Real(out.axis_values[i]);
    cuda::DeviceBuffer<Real> r_device(context, n), hand_out(context, n * recorded);
    r_device.upload(std::span<const Real>(r.data(), n));
    const cuda::Stream stream(context);
    const unsigned long long count = n;
    const Real x0 = Real(0.2);
    const double hand_ms = bench::median_ms(
        context, stream, 3, [] {},
        [&] {
            hand.launch(cuda::LaunchShape::linear(n, 128), stream, r_device, hand_out, count, transient,
                        recorded, x0);
        });
    const std::vector<Real> hand_values = hand_out.to_vector();
    // every 61st system compared in full (all 10^9 iterates would take the host a minute)
    std::size_t apart = 0, compared = 0, failed = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (out.status[i] != 1) ++failed;
    for (std::size_t i = 0; i < n; i += 61)
        for (int k = 0; k < recorded; ++k, ++compared)
            if (!(out.point(i, k, 0) == double(hand_values[std::size_t(k) * n + i]))) ++apart;
    std::printf(
        "logistic %s N=2^20 %5d+%4d iterates  bifscope %8.3f ms | hand %8.3f ms | ratio hand/bifscope "
        "%.3f | iterates not bit-equal: %zu of %zu | not ok %zu\n",
        single ? "float " : "double", transient, recorded, bif_ms, hand_ms, hand_ms / bif_ms, apart, compared,
        failed);
    bench::print_kernel("bifscope advance kernel", bifscope.program().advance_kernel());
    if (bifscope.program().map_diagram_kernel())
        bench::print_kernel("bifscope map-diagram pass", *bifscope.program().map_diagram_kernel());
    bench::print_kernel("hand-written kernel", hand);
    std::fflush(stdout);
    return 0;
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    try {
        const cuda::Context context(0);
        const std::size_t n = std::size_t(1) << 20;
        compare<double>(context, n, false);
        compare<float>(context, n, true);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
