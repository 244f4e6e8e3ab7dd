// What one job costs beyond its integration (issues 33 and 36): a tiny study (a few systems, a few
// sections), run warm again and again through the job API, and the steps a job takes that do not
// depend on its size, each timed alone. No GPU needed: the CUDA backend's host-side steps (its
// source, its cache key, reading a cached module) are timed where NVRTC is installed.
//
//   bench_job_overhead [STUDY.json] [--systems N] [--sections N] [--repeats N]
//
// Every time is the median of --repeats (default 30) warm repeats, after one unmeasured run that
// compiles the study's native module into the cache.
//   job cpu          jobs::submit(..., backend cpu) to wait(): what `bifscope-cli run --backend cpu`
//                    pays per study beyond the process
//   backend run      CpuBackend::run alone; "integration" is its RunInfo::run_seconds
//   select auto      BackendRegistry::select(auto) with a stand-in GPU (the evaluator under the name
//                    "cuda", calibrated into a temporary cache): ready(), parallel_systems(), the
//                    code size, the calibration and the probe, as on a GPU machine
//   the steps        codegen, the native cache key, the native module (first load, then kept), the evaluator
//                    program, the result's allocation, the spec; for CUDA: its source, its cache key,
//                    a cached module read back
#include "engine/codegen/codegen.h"
#include "engine/cpu/cpu_backend.h"
#include "engine/cpu/evaluator_study_program.h"
#include "engine/cpu/native_study_program.h"
#include "engine/ensemble/study_spec.h"
#include "engine/jobs/backend_registry.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/speed_calibration.h"
#include "engine/jobs/work_probe.h"
#include "engine/study/resolved_study.h"

#if BIFSCOPE_BENCH_HAS_CUDA
#include "engine/cuda/device_info.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace bif;
namespace fs = std::filesystem;

namespace {

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Median seconds of `repeats` calls.
double median_of(int repeats, const std::function<void()>& step) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const double start = now();
        step();
        times.push_back(now() - start);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

void print(const char* what, double seconds) {
    std::printf("  %-48s %9.3f ms\n", what, seconds * 1e3);
}

// The evaluator under another name, standing in for a GPU where there is none: auto's choice by
// work then runs every step it runs on a GPU machine (calibration, probe, ready, lanes).
class NamedBackend : public study::Backend {
  public:
    NamedBackend(std::string name, std::shared_ptr<study::Backend> inner)
        : name_(std::move(name)), inner_(std::move(inner)) {}
    std::string name() const override { return name_; }
    study::Availability availability() const override { return inner_->availability(); }
    study::Availability supports(const study::ResolvedStudy& s) const override { return inner_->supports(s); }
    study::Result run(const study::ResolvedStudy& s, study::RunControl& c) override {
        return inner_->run(s, c);
    }
    bool ready(const study::ResolvedStudy& s) const override { return inner_->ready(s); }
    std::size_t parallel_systems(const study::ResolvedStudy&) const override { return 4096; }

  private:
    std::string name_;
    std::shared_ptr<study::Backend> inner_;
};

class Nothing : public study::Backend {
  public:
    std::string name() const override { return "nothing"; }
    study::Availability availability() const override { return {true, ""}; }
    study::Result run(const study::ResolvedStudy& s, study::RunControl&) override {
        study::Result r = study::allocate_result(s);
        r.info.complete = true;
        return r;
    }
};

std::shared_ptr<const study::ResolvedStudy> tiny(const study::ResolvedStudy& s, int systems, int sections) {
    study::Study st = s.study;
    const double per_axis =
        std::pow(double(systems), 1.0 / double(std::max<std::size_t>(1, st.sweep.size())));
    for (auto& axis : st.sweep)
        axis.count = std::max(2, int(std::lround(per_axis)));
    if (sections > 0) {
        st.bifurcation.transient_sections = std::min(st.bifurcation.transient_sections, sections);
        st.bifurcation.recorded_sections = std::min(st.bifurcation.recorded_sections, sections);
        st.map.transient_sections = std::min(st.map.transient_sections, sections);
        st.map.recorded_sections = std::min(st.map.recorded_sections, sections);
    }
    return study::resolve_study(st, s.base_directory).resolved;
}

void job_times(const study::ResolvedStudy& s, int repeats) {
    const auto shared = std::make_shared<const study::ResolvedStudy>(s);
    const jobs::BackendRegistry registry = jobs::installed_backends();
    const auto cpu = registry.find("cpu");
    const std::atomic<bool> never{false};
    double integration = 0;
    const auto run_job = [&] {
        jobs::JobOptions options;
        options.backend = study::BackendChoice::Cpu;
        auto job = jobs::submit(registry, shared, options);
        job->wait();
        if (!job->result()) {
            std::fprintf(stderr, "the job failed: %s\n", job->failure().c_str());
            std::exit(1);
        }
    };
    run_job(); // compiles into the cache
    {
        jobs::BackendRegistry nothing;
        nothing.add(std::make_shared<NamedBackend>("cpu", std::make_shared<Nothing>()));
        print("job of a backend that does nothing", median_of(repeats, [&] {
                  jobs::JobOptions options;
                  options.backend = study::BackendChoice::Cpu;
                  auto job = jobs::submit(nothing, shared, options);
                  job->wait();
              }));
    }
    const double job = median_of(repeats, run_job);
    print("job cpu (submit to wait)", job);
    print("backend run (CpuBackend::run)", median_of(repeats, [&] {
              study::RunControl control(never, {});
              integration = cpu->run(s, control).info.run_seconds;
          }));
    print("  of it integration (RunInfo::run_seconds)", integration);
    std::printf("  a cpu job: %.3f ms, %.3f ms of it beyond its integration\n", job * 1e3,
                (job - integration) * 1e3);
    print("cpu ready()", median_of(repeats, [&] { (void)cpu->ready(s); }));
}

void auto_times(const study::ResolvedStudy& s, int repeats) {
    const fs::path cache = fs::temp_directory_path() / ("bench-job-overhead-" + std::to_string(::getpid()));
    jobs::BackendRegistry registry;
    registry.add(cpu::make_cpu_backend());
    registry.add(std::make_shared<NamedBackend>("cuda", jobs::evaluator_stand_in()));
    const auto calibration =
        std::make_shared<jobs::SpeedCalibration>(cache / "backend-speeds.json", jobs::steady_seconds());
    registry.set_work_estimate(jobs::evaluator_stand_in(), calibration);
    const double start = now();
    (void)registry.select(study::BackendChoice::Auto, *jobs::reference_study(100000, 8));
    std::printf("  (stand-in GPU calibrated in %.2f s)\n", now() - start);
    std::string note;
    print("select auto (stand-in GPU)", median_of(repeats, [&] {
              const jobs::BackendSelection chosen = registry.select(study::BackendChoice::Auto, s);
              note = chosen.notes.empty() ? "" : chosen.notes.front();
          }));
    std::printf("    %s\n", note.c_str());
    auto probe = jobs::evaluator_stand_in();
    const std::atomic<bool> never{false};
    print("  the probe alone (measure_work, 2 ms)", median_of(repeats, [&] {
              jobs::ProbeOptions options;
              options.min_seconds = 0.002;
              (void)jobs::measure_work(s, *probe, never, jobs::steady_seconds(), options);
          }));
    print("  code size (the study's source generated)",
          median_of(repeats, [&] { (void)jobs::code_size(s); }));
    std::error_code ignored;
    fs::remove_all(cache, ignored);
}

void step_times(const study::ResolvedStudy& s, int repeats) {
    print("codegen (generate_source, double)", median_of(repeats, [&] {
              (void)codegen::generate_source(s.codegen_request(codegen::Precision::Double));
          }));
    const ensemble::SpecStorage spec(s);
    print("spec (SpecStorage)", median_of(repeats, [&] { const ensemble::SpecStorage again(s); }));
    print("allocate_result", median_of(repeats, [&] { (void)study::allocate_result(s); }));
    const cpu::NativeCompiler compiler;
    if (compiler.available()) {
        const std::string source = cpu::native_study_source(s, spec);
        print("native source + cache key", median_of(repeats, [&] {
                  const std::string text = cpu::native_study_source(s, spec);
                  (void)compiler.cache_key(text, cpu::native_study_flags(compiler, text));
              }));
        const double load_start = now();
        { const cpu::NativeStudyProgram first(compiler, s, spec, nullptr); }
        print("native module, first load (cache file, dlopen)", now() - load_start);
        print("native module again (kept loaded)",
              median_of(repeats, [&] { const cpu::NativeStudyProgram program(compiler, s, spec, nullptr); }));
    }
    if (cpu::evaluator_unsupported_reason(s).empty())
        print("evaluator program", median_of(repeats, [&] { (void)cpu::make_evaluator_program(s, spec); }));
#if BIFSCOPE_BENCH_HAS_CUDA
    if (!cuda::NvrtcLibrary::instance().available()) {
        std::printf("  (no NVRTC: the CUDA steps are not timed)\n");
        return;
    }
    const cuda::ModuleCompiler nvrtc;
    cuda::DeviceInfo h100;
    h100.name = "an sm_90 device (no GPU here)";
    h100.capability = {9, 0};
    h100.multiprocessors = 132;
    const cuda::Target target = nvrtc.target_for(h100);
    const codegen::Precision precision = codegen::Precision::Double;
    cuda::CompileRequest request;
    print("cuda source (ensemble_request)", median_of(repeats, [&] {
              request = cuda::ensemble_request(s, precision, spec.program(), 2);
              request.separate_functions = false;
          }));
    print("cuda cache key (SHA-256 of the program)",
          median_of(repeats, [&] { (void)nvrtc.cache_key(request, target); }));
    const double compile_start = now();
    (void)nvrtc.compile(request, target);
    std::printf("  (its module compiled or read in %.2f s)\n", now() - compile_start);
    print("cuda module from the cache (key, stat, entry read before)",
          median_of(repeats, [&] { (void)nvrtc.compile(request, target); }));
    print("cuda cached() (key, exists)", median_of(repeats, [&] { (void)nvrtc.cached(request, target); }));
#endif
}

} // namespace

int main(int argc, char** argv) {
    std::string path = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies/duffing_bifurcation_quick.json";
    int systems = 64, sections = 4, repeats = 30;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--systems" && i + 1 < argc)
            systems = std::atoi(argv[++i]);
        else if (a == "--sections" && i + 1 < argc)
            sections = std::atoi(argv[++i]);
        else if (a == "--repeats" && i + 1 < argc)
            repeats = std::max(1, std::atoi(argv[++i]));
        else
            path = a;
    }
    const auto loaded = study::load_study_file(path);
    if (!loaded.resolved) {
        std::fprintf(stderr, "%s does not load\n", path.c_str());
        return 1;
    }
    const auto s = tiny(*loaded.resolved, systems, sections);
    if (!s) {
        std::fprintf(stderr, "%s does not resolve when made tiny\n", path.c_str());
        return 1;
    }
    std::printf("%s: %zu systems, at most %d sections; median of %d warm repeats\n",
                fs::path(path).stem().c_str(), s->system_count(), sections, repeats);
    job_times(*s, repeats);
    auto_times(*s, repeats);
    step_times(*s, repeats);
    return 0;
}
