// NVRTC compile time of the bundled models (resources/models/*.ode) as a study program (the
// sections program with RKCK45, double), the way the CUDA backend compiles them:
// - cold (no cache), after the application's warm-up (NVRTC's first compile in the process is the
//   warm-up's), under each option variant (BENCH_COMPILE_VARIANTS, below), and the compile register
//   bound the backend chooses for the model's size (cuda::ensemble_min_blocks);
// - cached: a second compile served from a fresh disk cache (goal <= 50 ms);
// - a fresh process that loads the cached module (this program run again with --fresh-load),
//   phase by phase: what a new app process pays before its first launch (goal <= 20 ms).
// Targets the first GPU's architecture, or without a GPU sm_90 machine code (NVRTC has ptxas built
// in). Exits 77 without NVRTC.
//
// BENCH_COMPILE_MODELS="duffing lorenz": only models whose file name contains one of the words.
// BENCH_COMPILE_VARIANTS="label:min_blocks:options;...", options separated by spaces, min_blocks
// empty for the backend's rule; the backend's own choice always runs, last.
// BENCH_COMPILE_OBSERVES=0: the program of a study without a step observer (no extremes between
// sections, no step accessories). BIFSCOPE_CUDA_EVERY_STEP_LOOP=1: every step loop compiled, as
// before session 9 (the fixed-step loop that bif/study/common.h's BIF_ENSEMBLE_ADAPTIVE leaves out,
// the second loop of BIF_ENSEMBLE_OBSERVES_STEPS 2); BIFSCOPE_CUDA_ONE_OBSERVED_LOOP=0: the latter.
// BENCH_COMPILE_DUMP=DIR: each program's text into DIR/<model>_<variant>.cu (for NVRTC's --time).
// BENCH_COMPILE_METHOD=Rodas4: the method tag of bif::ensemble::methods the program integrates with
// (default Rkck45), e.g. Rodas4 or Rosenbrock23 for the stiff chains (schnakenberg_chain, linear_chain).
// BENCH_COMPILE_DIR=DIR: the models of DIR instead of resources/models. BENCH_COMPILE_COLD_ONLY=1: the
// cold compiles alone (no second compile into the cache, no cached compile, no fresh process).
// BIFSCOPE_NVRTC_SEPARATE=0: the whole-program module (bifscope-cli's) instead of functions compiled apart.
#include "bif/study/entry.h"
#include "engine/cuda/context.h"
#include "engine/cuda/device_info.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/embedded_headers.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/model/parse.h"
#include "handwritten/bench_support.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

using namespace bif;

namespace {

using Clock = std::chrono::steady_clock;

// CPU time of this process and its waited-for children (a compile in a child process included): on a
// shared build machine the wall time of a compile says more about the other jobs than about it.
double cpu_seconds() {
    rusage self{}, children{};
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    const auto seconds = [](const timeval& t) { return double(t.tv_sec) + 1e-6 * double(t.tv_usec); };
    return seconds(self.ru_utime) + seconds(self.ru_stime) + seconds(children.ru_utime) +
           seconds(children.ru_stime);
}

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Variant {
    std::string label;
    int min_blocks = -1; // -1: the backend's rule for the model
    std::vector<std::string> options;
    bool backend_choice = false; // the backend's bound (cuda::ensemble_min_blocks) and options (none)
};

std::vector<std::string> words(const std::string& text, char separator) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string word;
    while (std::getline(in, word, separator))
        if (!word.empty()) out.push_back(word);
    return out;
}

std::vector<Variant> variants_from_environment() {
    std::vector<Variant> variants;
    Variant chosen;
    chosen.label = "backend";
    chosen.backend_choice = true;
    const char* text = std::getenv("BENCH_COMPILE_VARIANTS");
    if (!text) return {chosen};
    for (const std::string& item : words(text, ';')) {
        const auto fields = words(item + ":", ':');
        Variant v;
        v.label = fields.empty() ? item : fields[0];
        const auto first = item.find(':');
        const auto second = first == std::string::npos ? first : item.find(':', first + 1);
        if (first != std::string::npos) {
            const std::string bound =
                item.substr(first + 1, second == std::string::npos ? second : second - first - 1);
            if (!bound.empty()) v.min_blocks = std::stoi(bound);
        }
        if (second != std::string::npos) v.options = words(item.substr(second + 1), ' ');
        variants.push_back(v);
    }
    variants.push_back(chosen); // last: a slow compile under a timeout still leaves the variants' figures
    return variants;
}

bool wanted(const std::filesystem::path& file) {
    const char* filter = std::getenv("BENCH_COMPILE_MODELS");
    if (!filter) return true;
    for (const std::string& word : words(filter, ' '))
        if (file.filename().string().find(word) != std::string::npos) return true;
    return false;
}

cuda::CompileRequest request_for(const model::Model& model, const Variant& v) {
    codegen::Request request;
    request.model = &model;
    cuda::EnsembleKernelOptions options;
    // as for a study (engine/cuda/ensemble_source.cpp): RKCK45's steps are adaptive, and a diagram
    // that records extremes between sections observes the steps (BENCH_COMPILE_OBSERVES=0: one that
    // does not); the environment's step-loop switches as for a study
    options.adaptive = true;
    options.one_observed_loop = true;
    options.separate_functions = !model.is_map(); // double, cold parts out of line
    cuda::apply_step_loop_switches(options);
    if (const char* observes = std::getenv("BENCH_COMPILE_OBSERVES");
        observes && std::string(observes) == "0")
        options.observes_steps = false;
    const int states = int(model.num_states());
    options.min_blocks = v.backend_choice || v.min_blocks < 0
                             ? cuda::ensemble_min_blocks(codegen::Precision::Double, states)
                             : v.min_blocks;
    const char* method = std::getenv("BENCH_COMPILE_METHOD");
    cuda::CompileRequest compile =
        cuda::ensemble_request(codegen::generate_source(request), "BifModel", ensemble::program_sections,
                               method && *method ? method : "Rkck45", options);
    compile.extra_options = v.options;
    return compile;
}

// The second process: what a new process does before its first launch, given a warm cache, in two
// parts: the warm-up an application does while its window opens (driver, context, NVRTC, kernel
// headers' digest, NVRTC's first compile: CudaBackend::warm_up), then the module of a run (source,
// cache, module load).
int fresh_load(const std::string& model_file, const std::string& cache_dir) {
    const auto start = Clock::now();
    const auto devices = cuda::list_devices();
    const double t_driver = ms_since(start);
    const cuda::Context context(devices.front().ordinal);
    const double t_context = ms_since(start);
    (void)cuda::NvrtcLibrary::instance().available();
    (void)cuda::embedded_headers_digest();
    const cuda::ModuleCompiler cached(cuda::ModuleCache{cache_dir});
    cached.warm_up(cached.target_for(devices.front()));
    const double t_warm = ms_since(start);
    const auto run_start = Clock::now();
    const auto parsed = model::load_model_file(model_file);
    if (!parsed.model) return 2;
    const cuda::CompileRequest request = request_for(*parsed.model, Variant{"backend", -1, {}, true});
    const double t_source = ms_since(run_start);
    const auto module_image = cached.compile(request, cached.target_for(devices.front()));
    const double t_cache = ms_since(run_start);
    const cuda::Module module(context, module_image);
    const double t_module = ms_since(run_start);
    std::printf(
        "fresh process, %s: warm-up %.1f ms (driver and devices %.1f, context %.1f, NVRTC, headers and "
        "a first compile %.1f); then module ready in %.1f ms (goal <= 20 ms): source %.1f, cache %.1f%s, "
        "load %.1f\n",
        std::filesystem::path(model_file).filename().c_str(), t_warm, t_driver, t_context - t_driver,
        t_warm - t_context, t_module, t_source, t_cache - t_source,
        module_image.from_cache() ? "" : " (NOT from cache)", t_module - t_cache);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--fresh-load") return fresh_load(argv[2], argv[3]);
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
        devices.empty() ? cuda::Target::machine_code(90) : cold.target_for(devices.front());
    // as the application's warm-up does while its window opens (CudaBackend::warm_up): NVRTC's first
    // compile in a process is not a model's
    cold.warm_up(target);
    std::printf("NVRTC %s, target %s\n", nvrtc.version_text().c_str(), target.name().c_str());
    std::vector<std::filesystem::path> files;
    const char* model_dir = std::getenv("BENCH_COMPILE_DIR");
    for (const auto& entry : std::filesystem::directory_iterator(
             model_dir && *model_dir ? std::filesystem::path(model_dir)
                                     : std::filesystem::path(bench::source_path("resources/models"))))
        if (entry.path().extension() == ".ode" && wanted(entry.path())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    const std::vector<Variant> variants = variants_from_environment();
    const char* cold_text = std::getenv("BENCH_COMPILE_COLD_ONLY");
    const bool cold_only = cold_text && std::string(cold_text) == "1";
    int failures = 0;
    double worst_cached = 0.0;
    for (const auto& file : files) {
        const auto parsed = model::load_model_file(file.string());
        if (!parsed.model) {
            std::printf("%-24s does not parse\n", file.filename().c_str());
            ++failures;
            continue;
        }
        for (const Variant& v : variants) {
            const cuda::CompileRequest compile = request_for(*parsed.model, v);
            if (const char* dump = std::getenv("BENCH_COMPILE_DUMP"))
                std::ofstream(std::string(dump) + "/" + file.stem().string() + "_" + v.label + ".cu")
                    << cuda::ModuleCompiler::program_text(compile);
            try {
                const double cpu_before = cpu_seconds();
                const auto a = cold.compile(compile, target);
                const double cpu = cpu_seconds() - cpu_before;
                std::string options;
                for (const auto& o : compile.extra_options)
                    options += " " + o;
                std::printf(
                    "%-24s %2zu states  %-10s cold %7.3f s (CPU %7.3f s)  source %5zu kB  image %4zu kB  "
                    "bound %s%s\n",
                    file.filename().c_str(), parsed.model->num_states(), v.label.c_str(), a.seconds(), cpu,
                    cuda::ModuleCompiler::program_text(compile).size() / 1024, a.image().size() / 1024,
                    compile.parts.back().text.find("MIN_BLOCKS") == std::string::npos ? "none" : "set",
                    options.c_str());
                if (!v.backend_choice || cold_only) continue;
                cached.compile(compile, target); // fills the cache
                const auto b = cached.compile(compile, target);
                worst_cached = std::max(worst_cached, b.seconds());
                std::printf("%-24s %2zu states  %-10s cached %6.1f ms%s\n", file.filename().c_str(),
                            parsed.model->num_states(), v.label.c_str(), 1e3 * b.seconds(),
                            b.from_cache() ? "" : " (not from cache!)");
                if (!devices.empty()) {
                    std::fflush(stdout);
                    const std::string command = "/proc/" + std::to_string(getpid()) + "/exe";
                    const std::string line = "'" + std::filesystem::read_symlink(command).string() +
                                             "' --fresh-load '" + file.string() + "' '" + cache_dir.string() +
                                             "'";
                    if (std::system(line.c_str()) != 0) ++failures;
                }
            } catch (const std::exception& e) {
                std::printf("%-24s %-10s FAILED: %s\n", file.filename().c_str(), v.label.c_str(), e.what());
                ++failures;
            }
            std::fflush(stdout);
        }
    }
    std::printf("compile: %d failures; slowest cached compile call %.1f ms (goal <= 50 ms)\n", failures,
                1e3 * worst_cached);
    std::filesystem::remove_all(cache_dir);
    return failures == 0 ? 0 : 1;
}
