#include "engine/cpu/orbit_runner.h"

#include "engine/ensemble/orbit_refinement.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace bif::cpu {

bool refine_orbits(const StudyProgram& program, const study::ResolvedStudy& study, study::Result& result,
                   study::RunControl& control) {
    const auto start = std::chrono::steady_clock::now();
    ensemble::OrbitBatch batch = ensemble::make_orbit_batch(study, result);
    const ensemble::OrbitView<double> view = ensemble::orbit_view_of(batch);
    const ensemble::OrbitSettings settings = ensemble::orbit_settings(study);
    const unsigned threads =
        unsigned(std::max<std::size_t>(1, std::min<std::size_t>(control.threads(), batch.count)));
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> stopped{false};
    control.report_progress(0, batch.count, "refining orbits");
    auto work = [&] {
        // one system a time: a refinement is a few periods' integration, well within a cancel's 100 ms
        for (std::size_t i = next.fetch_add(1); i < batch.count; i = next.fetch_add(1)) {
            if (control.cancelled()) {
                stopped.store(true);
                return;
            }
            program.refine_orbit(view, settings, i);
            control.report_progress(done.fetch_add(1) + 1, batch.count, "refining orbits");
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    ensemble::store_orbits(batch, result);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.info.orbit_seconds = seconds;
    result.info.notes.push_back("orbits: " + std::to_string(batch.count) + " refined on the CPU in " +
                                std::to_string(seconds) + " s");
    return !stopped.load();
}

} // namespace bif::cpu
