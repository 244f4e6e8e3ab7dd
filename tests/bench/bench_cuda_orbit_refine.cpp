// Orbit refinement after the MPGOS Duffing diagram (issue 34's goal): the bundled study
// resources/studies/duffing_bifurcation.json at 46080 values of k (1024 transient + 32 recorded
// periods of 2 pi, RKCK45 at 1e-9, double), its orbits of period 1 to 8 refined by Newton on the
// stroboscopic map with their Floquet multipliers (kernels/bif/study/orbit_refine.h) on the GPU
// after the diagram. The first run fills the module cache; the next three are timed and the median
// printed: the diagram (RunInfo::run_seconds less the refinement), the refinement
// (RunInfo::orbit_seconds: batch, module load, copies, kernel, storing) and its kernel alone (the
// run's note), with the counts by period and stability. Goal: refinement <= 0.1 s on one H200.
// BENCH_ORBIT_SYSTEMS overrides the 46080 values.
#include "engine/cuda/driver_library.h"
#include "engine/study/orbit_columns.h"
#include "handwritten/bench_support.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>

using namespace bif;

namespace {

double value(const study::Result& r, const char* name, std::size_t s) {
    const study::NumberColumn* c = r.scalar(name);
    return c ? c->values[s] : study::missing_value;
}

void print_counts(const study::ResolvedStudy& s, const study::Result& r) {
    std::map<int, std::size_t> by_status;
    std::map<int, std::pair<std::size_t, std::size_t>> by_period; // stable, unstable
    for (std::size_t i = 0; i < r.system_count; ++i) {
        const double status = value(r, study::orbit_status_column, i);
        if (status != status) continue;
        ++by_status[int(status)];
        if (int(status) != int(study::OrbitStatus::Converged)) continue;
        auto& counts = by_period[int(value(r, study::orbit_period_column, i))];
        (value(r, study::orbit_stable_column, i) == 1.0 ? counts.first : counts.second)++;
    }
    for (const auto& [status, count] : by_status)
        std::printf("  status %-18s %zu\n", study::name_of(study::OrbitStatus(status)), count);
    for (const auto& [period, counts] : by_period)
        std::printf("  period %d: %zu stable, %zu unstable\n", period, counts.first, counts.second);
    std::printf("  distinct orbits: %zu\n", study::distinct_orbits(s, r).size());
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    try {
        auto read = study::read_study_file(bench::source_path("resources/studies/duffing_bifurcation.json"));
        if (!read.study) throw std::runtime_error("cannot read the MPGOS study");
        const char* systems = std::getenv("BENCH_ORBIT_SYSTEMS");
        read.study->sweep.at(0).count = systems ? std::atoi(systems) : 46080;
        read.study->bifurcation.orbits.refine = true;
        read.study->bifurcation.orbits.max_period = 8;
        const auto resolved =
            study::resolve_study(*read.study, bench::source_path("resources/studies")).resolved;
        if (!resolved) throw std::runtime_error("the MPGOS study with orbit refinement does not resolve");
        auto backend = cuda::make_cuda_backend();
        std::vector<double> diagrams, refinements;
        study::Result last;
        for (int run = 0; run < 4; ++run) {
            std::atomic<bool> cancel{false};
            study::RunControl control(cancel, {});
            study::Result r = backend->run(*resolved, control);
            const double diagram = r.info.run_seconds - r.info.orbit_seconds;
            std::printf("run %d: diagram %.3f s, refinement %.4f s (compile %.3f s, %s); %s\n", run, diagram,
                        r.info.orbit_seconds, r.info.compile_seconds, r.info.code_note.c_str(),
                        r.info.notes.empty() ? "" : r.info.notes.back().c_str());
            if (run > 0) {
                diagrams.push_back(diagram);
                refinements.push_back(r.info.orbit_seconds);
            }
            last = std::move(r);
        }
        std::sort(diagrams.begin(), diagrams.end());
        std::sort(refinements.begin(), refinements.end());
        std::printf("%s, %zu systems:\n", last.info.device.c_str(), last.system_count);
        print_counts(*resolved, last);
        std::printf(
            "mpgos duffing orbit refinement: diagram %.3f s, refinement %.4f s median (goal <= 0.1 s)\n",
            diagrams[diagrams.size() / 2], refinements[refinements.size() / 2]);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
