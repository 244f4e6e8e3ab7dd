// Chunked runs with copies overlapped (two lanes per GPU) and without (one lane): Lorenz, RK4 at a
// step of 0.001, N systems over rho in [0, 21] each recording x, y, z at 128 stroboscopic sections
// (3 KB a system in double, 3 GiB at the default N = 2^20), forced into batches of C systems
// (default 2^17) by max_batch, on every visible GPU. Two cases: copy-heavy (10 steps between
// recorded rows) and balanced (100 steps). Each is timed end to end through the runner (host batches,
// uploads, kernels, downloads, result assembly; compilation excluded) and through the runner alone
// (batches not stored: the calling thread's assembly out of the way), the median of 3 runs per
// setting after a warm-up, the settings alternating. Prints both times, their ratio and whether both
// give the same bits. BENCH_SYSTEMS and BENCH_CHUNK override N and C. Exits 77 without a GPU.
#include "../cuda/runner_harness.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "handwritten/bench_support.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace bif;

namespace {

constexpr int recorded_rows = 128;

std::size_t from_environment(const char* name, std::size_t fallback) {
    const char* value = std::getenv(name);
    return value ? std::size_t(std::strtoull(value, nullptr, 10)) : fallback;
}

std::string lorenz_study(std::size_t n, const char* row_period) {
    return R"({"bifscope_study": 1, "model": {"path": "../models/lorenz.ode"},
      "initial": {"x": 1, "y": 0, "z": 0},
      "sweep": [{"parameter": "rho", "from": 0, "to": 21, "count": )" +
           std::to_string(n) + R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": ")" +
           row_period + R"("}, "transient_sections": 0, "recorded_sections": )" +
           std::to_string(recorded_rows) +
           R"(, "record": ["x", "y", "z"]},
      "solver": {"method": "rk4", "initial_step": 0.001},
      "precision": "double"})";
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

bool same_bits(const study::Result& a, const study::Result& b) {
    return a.status == b.status && a.points.rows_filled == b.points.rows_filled &&
           a.points.values.size() == b.points.values.size() &&
           std::memcmp(a.points.values.data(), b.points.values.data(),
                       a.points.values.size() * sizeof(double)) == 0;
}

struct Timing {
    double one_lane = 0.0, two_lanes = 0.0; // seconds, medians
    cuda::testing::RunnerRun last_one, last_two;
};

// Median of 3 runs per setting after a warm-up, the settings alternating.
Timing time_lanes(const cuda::testing::RunnerHarness& harness, std::size_t chunk, bool assemble) {
    cuda::RunnerOptions one, two;
    one.max_batch = two.max_batch = chunk;
    one.lanes = 1;
    two.lanes = 2;
    harness.run(two, 0, assemble); // warm-up: module load, first touch of host memory
    std::vector<double> one_s, two_s;
    Timing t;
    for (int r = 0; r < 3; ++r) {
        t.last_one = harness.run(one, 0, assemble);
        one_s.push_back(t.last_one.seconds);
        t.last_two = harness.run(two, 0, assemble);
        two_s.push_back(t.last_two.seconds);
    }
    t.one_lane = median(one_s);
    t.two_lanes = median(two_s);
    return t;
}

void run_case(const char* name, const char* row_period, std::size_t n, std::size_t chunk) {
    const cuda::testing::RunnerHarness harness(bench::resolve_json(lorenz_study(n, row_period)),
                                               codegen::Precision::Double);
    const double gib = double(n) * (recorded_rows * 3 * 8 + 8) / double(1ULL << 30);
    for (const bool assemble : {false, true}) {
        const Timing t = time_lanes(harness, chunk, assemble);
        std::printf("%-10s %-12s N=%zu, %zu batches of %zu, %.2f GiB of results: 1 lane %.3f s (%.2f GiB/s), "
                    "2 lanes %.3f s (%.2f GiB/s) | ratio 1 lane / 2 lanes %.2f | lanes used %d | pinned %s",
                    name, assemble ? "end to end" : "runner only", n, t.last_two.batches.size(), chunk, gib,
                    t.one_lane, gib / t.one_lane, t.two_lanes, gib / t.two_lanes, t.one_lane / t.two_lanes,
                    t.last_two.lanes_used, t.last_two.pinned ? "yes" : "no");
        if (assemble)
            std::printf(" | same bits %s | ok %zu of %zu",
                        same_bits(t.last_one.result, t.last_two.result) ? "yes" : "NO",
                        t.last_two.result.count(study::SystemStatus::Ok), n);
        std::printf("\n");
        std::fflush(stdout);
    }
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    try {
        const std::size_t n = from_environment("BENCH_SYSTEMS", std::size_t(1) << 20);
        const std::size_t chunk =
            std::max<std::size_t>(1, from_environment("BENCH_CHUNK", std::size_t(1) << 17));
        std::printf("device %s x%d\n", cuda::list_devices().front().summary().c_str(),
                    cuda::DriverLibrary::instance().device_count());
        run_case("copy-heavy", "0.01", n, chunk);
        run_case("balanced", "0.1", n, chunk);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
