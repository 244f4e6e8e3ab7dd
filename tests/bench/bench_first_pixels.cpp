// Time from submit to the first published block of a progressive job on the CPU backend, for every
// study in resources/studies: with the native cache warm (the study compiled beforehand), and cold (a
// fresh cache folder, the compiler-free evaluator as stand-in while the model compiles). Goals: first
// block within 0.3 s warm, 1 s cold. Each job is cancelled once its first block is in; a job with no
// block after the time limit counts as a miss. Counts are the studies' own (nothing shrunk).
//
//   bench_first_pixels [limit_seconds=20] [studies folder=resources/studies]
#include "engine/cpu/cpu_backend.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/pass_plan.h"
#include "engine/study/resolved_study.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdlib.h>
#include <string>
#include <vector>

using namespace bif;
namespace fs = std::filesystem;

namespace {

struct FirstBlock {
    double seconds = -1.0; // -1: none within the limit
    std::size_t systems = 0;
    bool provisional = false;
};

FirstBlock time_first_block(std::shared_ptr<study::Backend> backend, std::shared_ptr<study::Backend> stand_in,
                            std::shared_ptr<const study::ResolvedStudy> s, double limit_seconds) {
    jobs::BackendRegistry registry;
    registry.add(std::move(backend));
    std::atomic<bool> got{false};
    FirstBlock first;
    const auto start = std::chrono::steady_clock::now();
    jobs::JobOptions options;
    options.progressive = true;
    options.stand_in = std::move(stand_in);
    options.on_block = [&](std::shared_ptr<const jobs::ResultBlock> b) {
        if (got.exchange(true)) return;
        first.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        first.systems = b->systems.size();
        first.provisional = b->provisional;
    };
    auto job = jobs::submit(registry, s, options);
    const auto limit = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(limit_seconds));
    while (!got.load() && !job->finished() && std::chrono::steady_clock::now() < limit)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    job->cancel();
    job->wait();
    if (first.seconds >= limit_seconds) first.seconds = -1.0; // the block the cancel cut short
    return first;
}

std::string cell(const FirstBlock& b, double goal) {
    if (b.seconds < 0) return "none in time: MISS";
    char text[64];
    std::snprintf(text, sizeof text, "%6.3f s %s%s", b.seconds, b.seconds <= goal ? "ok  " : "MISS",
                  b.provisional ? " (preview)" : "");
    return text;
}

fs::path fresh_cache_dir() {
    std::string pattern = (fs::temp_directory_path() / "bifscope-first-pixels-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder");
    return pattern;
}

} // namespace

int main(int argc, char** argv) {
    const double limit = argc > 1 ? std::atof(argv[1]) : 20.0;
    const fs::path folder =
        argc > 2 ? fs::path(argv[2]) : fs::path(BIFSCOPE_SOURCE_DIR) / "resources/studies";
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());

    std::shared_ptr<study::Backend> warm = cpu::make_cpu_backend();
    std::printf("first block after submit, CPU backend, %u hardware threads, limit %.0f s\n",
                std::thread::hardware_concurrency(), limit);
    std::printf("goals: warm cache < 0.3 s, cold cache < 1 s (stand-in: the compiler-free evaluator)\n\n");
    std::printf("%-38s %8s %6s %6s  %-22s %-22s\n", "study", "systems", "passes", "first", "warm", "cold");
    for (const auto& file : files) {
        const study::ResolveResult loaded = study::load_study_file(file.string());
        if (!loaded.resolved) {
            std::printf("%-38s does not load\n", file.filename().c_str());
            continue;
        }
        const auto& s = loaded.resolved;
        // The first block size a job on all hardware threads uses (job.cpp).
        const jobs::PassPlan plan =
            jobs::plan_passes(*s, std::clamp<std::size_t>(std::thread::hardware_concurrency(), 2, 64));
        // Warm: compile (or find) the study's code first, untimed.
        std::atomic<bool> no_cancel{false};
        study::RunControl control(no_cancel, {});
        warm->prepare(*s, control);
        const FirstBlock w = time_first_block(warm, nullptr, s, limit);

        const fs::path cache = fresh_cache_dir();
        cpu::CpuBackendOptions cold_options;
        cold_options.compile.cache_dir = cache;
        const FirstBlock c =
            time_first_block(cpu::make_cpu_backend(cold_options), jobs::evaluator_stand_in(), s, limit);
        fs::remove_all(cache);
        std::printf("%-38s %8zu %6d %6zu  %-22s %-22s\n", file.filename().c_str(), s->system_count(),
                    plan.pass_count, plan.blocks.front().systems.size(), cell(w, 0.3).c_str(),
                    cell(c, 1.0).c_str());
        std::fflush(stdout);
    }
    return 0;
}
