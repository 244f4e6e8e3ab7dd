// One study on one GPU and on every visible GPU, end to end through the CUDA backend (RunInfo's
// total: compile from the warm module cache, contexts, module loads, integration and result
// assembly): the MPGOS Duffing diagram (resources/studies/duffing_bifurcation.json: 1024 transient
// + 32 recorded periods, RKCK45 at 1e-9, double) at 2^20 values of k, and a 2048^2 Duffing
// period/Lyapunov map (resources/studies/duffing_period_map.json, 64 transient + 64 recorded periods,
// as in issue 11's figures). Each configuration runs once to fill the cache, then three timed runs;
// the medians and the speed-up are printed as a table. Goal on two GPUs: >= 1.9x end to end.
// BENCH_MULTI_GPU_SCALE=N divides the systems by N (a quick look).
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "handwritten/bench_support.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <numeric>

using namespace bif;

namespace {

struct Timing {
    double total = 0.0; // median, seconds
    double run = 0.0;   // of the same run
    std::string note;
};

// Median of three warm runs on `devices` (empty: every GPU).
Timing time_on(const study::ResolvedStudy& study, const std::vector<int>& devices) {
    cuda::CudaBackendOptions options;
    options.devices = devices;
    auto backend = cuda::make_cuda_backend(options);
    std::vector<study::Result> runs;
    for (int run = 0; run < 4; ++run) {
        std::atomic<bool> cancel{false};
        study::RunControl control(cancel, {});
        study::Result r = backend->run(study, control);
        std::printf("  %s run %d: total %.3f s (compile %.3f s, integrate+assemble %.3f s), ok %zu of %zu\n",
                    devices.empty() ? "all GPUs" : "GPU 0", run, r.info.total_seconds, r.info.compile_seconds,
                    r.info.run_seconds, r.count(study::SystemStatus::Ok), r.system_count);
        for (const std::string& note : r.info.notes)
            std::printf("    %s\n", note.c_str());
        if (run == 0) continue; // fills the module cache
        r.points.values.clear();
        r.points.values.shrink_to_fit();
        runs.push_back(std::move(r));
    }
    std::sort(runs.begin(), runs.end(), [](const study::Result& a, const study::Result& b) {
        return a.info.total_seconds < b.info.total_seconds;
    });
    const study::Result& median = runs[runs.size() / 2];
    return {median.info.total_seconds, median.info.run_seconds,
            median.info.notes.empty() ? "" : median.info.notes[0]};
}

std::shared_ptr<const study::ResolvedStudy> example(const char* file, int per_axis, int transient,
                                                    int recorded) {
    auto read = study::read_study_file(bench::source_path(std::string("resources/studies/") + file));
    if (!read.study) throw std::runtime_error(std::string("cannot read ") + file);
    for (auto& axis : read.study->sweep)
        axis.count = per_axis;
    if (transient > 0) {
        read.study->map.transient_sections = transient;
        read.study->map.recorded_sections = recorded;
    }
    read.study->precision = study::PrecisionChoice::Double;
    auto resolved = study::resolve_study(*read.study, bench::source_path("resources/studies")).resolved;
    if (!resolved) throw std::runtime_error(std::string(file) + " does not resolve");
    return resolved;
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    try {
        const int gpus = cuda::DriverLibrary::instance().device_count();
        const char* scale_text = std::getenv("BENCH_MULTI_GPU_SCALE");
        const int scale = std::max(1, scale_text ? std::atoi(scale_text) : 1);
        struct Case {
            const char* name;
            std::shared_ptr<const study::ResolvedStudy> study;
        };
        const Case cases[] = {
            {"mpgos duffing diagram 2^20", example("duffing_bifurcation.json", (1 << 20) / scale, 0, 0)},
            {"duffing period/lyapunov map 2048^2", example("duffing_period_map.json", 2048 / scale, 64, 64)},
        };
        std::vector<std::string> rows;
        for (const Case& c : cases) {
            std::printf("%s: %zu systems on %s\n", c.name, c.study->system_count(),
                        cuda::list_devices().front().summary().c_str());
            const Timing one = time_on(*c.study, {0});
            const Timing all = gpus > 1 ? time_on(*c.study, {}) : one;
            char row[320];
            std::snprintf(row, sizeof row, "%-36s | %8.3f s %8.3f s | %8.3f s %8.3f s | %5.2fx %5.2fx",
                          c.name, one.total, one.run, all.total, all.run, one.total / all.total,
                          one.run / all.run);
            rows.push_back(row);
        }
        std::printf("\nmulti-GPU end to end, median of 3 warm runs, %d GPU(s) (goal >= 1.9x on 2)\n", gpus);
        std::printf("%-36s | %-19s | %-19s | %s\n", "study", "1 GPU total  run", "all GPUs total  run",
                    "speed-up total run");
        for (const std::string& row : rows)
            std::printf("%s\n", row.c_str());
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
