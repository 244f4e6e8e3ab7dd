// The MPGOS paper's Duffing bifurcation diagram end to end through the CUDA backend: the bundled
// example study resources/studies/duffing_bifurcation.json with 46080 values of k (1024 transient +
// 32 recorded periods of 2 pi, RKCK45 at 1e-9, double). The first run fills the module cache; the
// next three are timed (RunInfo: compile, run, total) and the median total printed. Goal: < 0.3 s.
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "handwritten/bench_support.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace bif;

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    try {
        auto read = study::read_study_file(bench::source_path("resources/studies/duffing_bifurcation.json"));
        if (!read.study) throw std::runtime_error("cannot read the MPGOS study");
        read.study->sweep.at(0).count = 46080;
        const auto resolved =
            study::resolve_study(*read.study, bench::source_path("resources/studies")).resolved;
        if (!resolved) throw std::runtime_error("the MPGOS study does not resolve");
        auto backend = cuda::make_cuda_backend();
        std::vector<double> totals;
        for (int run = 0; run < 4; ++run) {
            std::atomic<bool> cancel{false};
            study::RunControl control(cancel, {});
            const study::Result r = backend->run(*resolved, control);
            std::printf("run %d: total %.3f s (compile %.3f s, %s; integrate %.3f s) ok %zu of %zu; %s\n",
                        run, r.info.total_seconds, r.info.compile_seconds, r.info.code_note.c_str(),
                        r.info.run_seconds, r.count(study::SystemStatus::Ok), r.system_count,
                        r.info.notes.empty() ? "" : r.info.notes.back().c_str());
            if (run > 0) totals.push_back(r.info.total_seconds);
        }
        std::sort(totals.begin(), totals.end());
        std::printf("mpgos duffing 46080 systems end to end (warm cache): median %.3f s (goal < 0.3 s)\n",
                    totals[totals.size() / 2]);
        // BENCH_MIN_BLOCKS="a b c": the kernel's register bound forced to each (second run timed)
        if (const char* list = std::getenv("BENCH_MIN_BLOCKS")) {
            std::istringstream in(list);
            for (int v; in >> v;) {
                cuda::CudaBackendOptions options;
                options.min_blocks = v;
                auto variant = cuda::make_cuda_backend(options);
                study::Result r;
                for (int run = 0; run < 2; ++run) {
                    std::atomic<bool> cancel{false};
                    study::RunControl control(cancel, {});
                    r = variant->run(*resolved, control);
                }
                std::printf("mpgos min_blocks %2d: total %.3f s (integrate %.3f s) ok %zu\n", v,
                            r.info.total_seconds, r.info.run_seconds, r.count(study::SystemStatus::Ok));
            }
        }
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
