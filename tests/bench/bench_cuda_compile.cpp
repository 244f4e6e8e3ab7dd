// NVRTC compile time of every bundled model (resources/models/*.ode) as a study program (the
// sections program with RKCK45, double): cold (no cache) and cached (a second compile served from a
// fresh disk cache; goal <= 50 ms). Targets the first GPU's architecture, or without a GPU the
// oldest virtual architecture NVRTC supports (PTX). Exits 77 without NVRTC.
#include "bif/study/entry.h"
#include "engine/cuda/device_info.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/model/parse.h"
#include "handwritten/bench_support.h"

#include <filesystem>
#include <unistd.h>

using namespace bif;

int main() {
    const auto& nvrtc = cuda::NvrtcLibrary::instance();
    if (!nvrtc.available()) {
        std::printf("SKIPPED: %s\n", nvrtc.unavailable_reason().c_str());
        return 77;
    }
    const auto cache_dir =
        std::filesystem::temp_directory_path() / ("bifscope-bench-compile-" + std::to_string(getpid()));
    std::filesystem::remove_all(cache_dir);
    const cuda::ModuleCompiler cold(cuda::ModuleCache::disabled());
    const cuda::ModuleCompiler cached(cuda::ModuleCache{cache_dir});
    const auto devices = cuda::list_devices();
    const cuda::Target target =
        devices.empty() ? cold.oldest_virtual_target() : cold.target_for(devices.front());
    std::printf("NVRTC %s, target %s\n", nvrtc.version_text().c_str(), target.name().c_str());
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(bench::source_path("resources/models")))
        if (entry.path().extension() == ".ode") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    int failures = 0;
    double worst_cached = 0.0;
    for (const auto& file : files) {
        const auto parsed = model::load_model_file(file.string());
        if (!parsed.model) {
            std::printf("%-24s does not parse\n", file.filename().c_str());
            ++failures;
            continue;
        }
        codegen::Request request;
        request.model = &*parsed.model;
        const cuda::CompileRequest compile = cuda::ensemble_request(
            codegen::generate_source(request), "BifModel", ensemble::program_sections, "Rkck45");
        try {
            const auto a = cold.compile(compile, target);
            cached.compile(compile, target); // fills the cache
            const auto b = cached.compile(compile, target);
            worst_cached = std::max(worst_cached, b.seconds());
            std::printf("%-24s %2zu states  cold %7.3f s  cached %6.1f ms%s  image %zu kB\n",
                        file.filename().c_str(), parsed.model->num_states(), a.seconds(), 1e3 * b.seconds(),
                        b.from_cache() ? "" : " (not from cache!)", a.image().size() / 1024);
        } catch (const std::exception& e) {
            std::printf("%-24s FAILED: %s\n", file.filename().c_str(), e.what());
            ++failures;
        }
        std::fflush(stdout);
    }
    std::printf("compile: %d failures; slowest cached load %.1f ms (goal <= 50 ms)\n", failures,
                1e3 * worst_cached);
    std::filesystem::remove_all(cache_dir);
    return failures == 0 ? 0 : 1;
}
