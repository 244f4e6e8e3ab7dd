// Duffing (B = 0.3, k in [0.2, 0.3]), RKCK45 at tolerance 1e-9, 64 forcing periods of 2 pi,
// N = 2^20, double: the Bifscope ensemble kernel (a bifurcation study whose one recorded
// stroboscopic section is the 64th) against the hand-written kernel (handwritten/duffing_rkck45.cu,
// same step control), timed with CUDA events (median of 3 after a warm-up). Exits 77 without a GPU.
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "handwritten/bench_support.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace bif;

namespace {

struct DuffingSettings { // as in handwritten/duffing_rkck45.cu
    double delta, B, omega, rtol, atol, h0, shrink;
    int periods;
};

// "bound": 0 overrides the model's @ bound=1000: the hand-written kernel tests no bound either.
std::string duffing_study(std::size_t n) {
    return R"({"bifscope_study": 1, "model": {"path": "../models/duffing.ode"},
      "parameters": {"b": 0.3, "delta": 1, "omega": 1}, "initial": {"y1": 0.1, "y2": 0},
      "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": )" +
           std::to_string(n) + R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                   "transient_sections": 63, "recorded_sections": 1, "record": ["y1", "y2"]},
      "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9, "initial_step": 0.01, "bound": 0},
      "precision": "double"})";
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
        // BENCH_MIN_BLOCKS="a b c": kernel register bounds to time besides the backend's default
        const auto study = bench::resolve_json(duffing_study(n));
        if (const char* list = std::getenv("BENCH_MIN_BLOCKS")) {
            std::istringstream in(list);
            for (int v; in >> v;) {
                bench::BifscopeEnsemble variant(context, study, codegen::Precision::Double, v);
                std::printf("duffing rkck45 min_blocks %2d  bifscope %8.3f ms\n", v, variant.time_ms(3));
                bench::print_kernel("bifscope advance kernel", variant.program().advance_kernel());
                std::fflush(stdout);
            }
        }
        bench::BifscopeEnsemble bifscope(context, study, codegen::Precision::Double);
        const double bif_ms = bifscope.time_ms(3);
        const ensemble::BatchArrays& out = bifscope.results();

        const cuda::Module module = bench::load_handwritten(context, "duffing_rkck45.cu");
        const cuda::Kernel hand = module.kernel("hand_duffing_rkck45");
        cuda::DeviceBuffer<double> k_device(context, n), hand_out(context, 2 * n);
        k_device.upload(std::span<const double>(out.axis_values.data(), n));
        const DuffingSettings settings{1.0, 0.3, 1.0, 1e-9, 1e-9, 0.01, 0.1, 64};
        const cuda::Stream stream(context);
        const unsigned long long count = n;
        const double hand_ms = bench::median_ms(
            context, stream, 3, [] {},
            [&] {
                hand.launch(cuda::LaunchShape::linear(n, 128), stream, k_device, hand_out, count, settings);
            });
        const std::vector<double> hand_values = hand_out.to_vector();
        const int bif_blocks = bifscope.program().advance_kernel().max_active_blocks_per_multiprocessor(128);
        const auto matched = bench::shape_at_occupancy(hand, n, bif_blocks);
        const double matched_ms = bench::median_ms(
            context, stream, 3, [] {},
            [&] { hand.launch(matched, stream, k_device, hand_out, count, settings); });
        double worst = 0.0;
        std::size_t far = 0, failed = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (out.status[i] != 1) ++failed;
            for (int c = 0; c < 2; ++c) {
                const double d = std::fabs(out.point(i, 0, c) - hand_values[std::size_t(c) * n + i]);
                worst = std::max(worst, d);
                if (!(d <= 1e-6)) ++far;
            }
        }
        std::printf("duffing rkck45 double N=2^20 64 periods  bifscope %8.3f ms | hand %8.3f ms | ratio "
                    "hand/bifscope %.3f | values apart > 1e-6: %zu of %zu (max %.1e) | not ok %zu\n",
                    bif_ms, hand_ms, hand_ms / bif_ms, far, 2 * n, worst, failed);
        bench::print_kernel("bifscope advance kernel", bifscope.program().advance_kernel());
        bench::print_kernel("hand-written kernel", hand);
        std::printf("  hand-written at the bifscope kernel's %d blocks/SM (%d with %u B shared): %8.3f ms, "
                    "ratio %.3f\n",
                    bif_blocks, hand.max_active_blocks_per_multiprocessor(128, matched.shared_bytes),
                    matched.shared_bytes, matched_ms, matched_ms / bif_ms);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
