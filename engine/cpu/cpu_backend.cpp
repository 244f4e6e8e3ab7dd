#include "engine/cpu/cpu_backend.h"

#include "engine/cpu/ensemble_runner.h"
#include "engine/cpu/evaluator_study_program.h"
#include "engine/cpu/native_study_program.h"
#include "engine/cpu/orbit_runner.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/study/orbit_columns.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

namespace bif::cpu {

namespace {

class CpuBackend : public study::Backend {
  public:
    explicit CpuBackend(CpuBackendOptions options) : options_(std::move(options)) {
        if (options_.compile.extra_flags.empty()) options_.compile.extra_flags = {"-O3"};
        if (options_.allow_native) compiler_ = std::make_unique<NativeCompiler>(options_.compile);
    }

    std::string name() const override { return "cpu"; }
    study::Availability availability() const override { return {true, ""}; }

    study::Availability supports(const study::ResolvedStudy& study) const override {
        if (compiler_ && compiler_->available()) return {true, ""};
        if (!options_.allow_evaluator) return {false, "no C++ compiler: " + unavailable_reason()};
        const std::string why = evaluator_unsupported_reason(study);
        if (!why.empty())
            return {false, why + ", and there is no C++ compiler (" + unavailable_reason() + ")"};
        return {true, ""};
    }

    // Ready unless the native path would compile: the evaluator and a cache hit start at once.
    bool ready(const study::ResolvedStudy& study) const override {
        if (!compiler_ || !compiler_->available()) return true;
        const std::string source = native_study_source(study, ensemble::SpecStorage(study));
        const std::string key = compiler_->cache_key(source, native_study_flags(*compiler_, source));
        if (compiler_->loaded(key)) return true;
        std::error_code ignored;
        return std::filesystem::exists(compiler_->cache_dir() / (key + ".so"), ignored);
    }

    void prepare(const study::ResolvedStudy& study, study::RunControl& control) override {
        if (!compiler_ || !compiler_->available()) return;
        control.report_progress(0, study.system_count(), "compiling model");
        try {
            const ensemble::SpecStorage spec(study);
            compile_watching_cancel(study, spec, control);
        } catch (const std::exception&) {
            // run() meets the same failure and reports it, or falls back to the evaluator
        }
    }

    study::Result run(const study::ResolvedStudy& study, study::RunControl& control) override {
        const auto start = std::chrono::steady_clock::now();
        study::Result result = study::allocate_result(study);
        result.info.backend = "cpu";
        result.info.device =
            std::to_string(control.threads()) + (control.threads() == 1 ? " thread" : " threads");
        result.info.precision = codegen::Precision::Double;
        if (study.study.precision == study::PrecisionChoice::Float)
            result.info.notes.push_back("the CPU backend computes in double; the study asked for float");
        const ensemble::SpecStorage spec(study);
        std::unique_ptr<StudyProgram> program = prepare(study, spec, control, result.info);
        if (!program) return result; // cancelled while compiling
        const auto run_start = std::chrono::steady_clock::now();
        ensemble::ResultAssembly assembly(study, result);
        EnsembleRunner runner(*program, study, spec, control);
        result.info.complete = runner.run([&](const ensemble::BatchArrays& batch) { assembly.store(batch); });
        for (auto& w : assembly.warnings())
            result.info.warnings.push_back(std::move(w));
        if (result.info.complete && study::refines_orbits(study))
            result.info.complete = refine_orbits(*program, study, result, control);
        const auto end = std::chrono::steady_clock::now();
        result.info.run_seconds = std::chrono::duration<double>(end - run_start).count();
        result.info.total_seconds = std::chrono::duration<double>(end - start).count();
        return result;
    }

  private:
    std::string unavailable_reason() const {
        if (!options_.allow_native) return "the native path is switched off";
        return compiler_ ? compiler_->unavailable_reason() : "no compiler";
    }

    // NativeCompiler takes a cancel flag of its own: a watcher copies the control's into it, and
    // repeats the phase meanwhile so that the progress's elapsed time runs on (big models compile
    // for seconds). It waits on a condition, not a sleep, so that a module from the cache (well under
    // a millisecond) is not held up by the watcher's tick: a 10 ms sleep cost every warm run 10 ms.
    // A module this backend loaded before (a study run again) needs no watcher at all.
    std::unique_ptr<NativeStudyProgram> compile_watching_cancel(const study::ResolvedStudy& study,
                                                                const ensemble::SpecStorage& spec,
                                                                study::RunControl& control) const {
        const std::string source = native_study_source(study, spec);
        if (compiler_->loaded(compiler_->cache_key(source, native_study_flags(*compiler_, source))))
            return std::make_unique<NativeStudyProgram>(*compiler_, source, spec, nullptr);
        std::atomic<bool> cancel{false};
        std::mutex mutex;
        std::condition_variable changed;
        bool finished = false;
        std::thread watcher([&] {
            std::unique_lock lock(mutex);
            for (int tick = 1;
                 !changed.wait_for(lock, std::chrono::milliseconds(10), [&] { return finished; }); ++tick) {
                if (control.cancelled()) cancel.store(true);
                if (tick % 25 == 0) control.report_progress(0, study.system_count(), "compiling model");
            }
        });
        struct Join {
            std::mutex& mutex;
            std::condition_variable& changed;
            bool& finished;
            std::thread& watcher;
            ~Join() {
                {
                    std::lock_guard lock(mutex);
                    finished = true;
                }
                changed.notify_all();
                watcher.join();
            }
        } join{mutex, changed, finished, watcher};
        return std::make_unique<NativeStudyProgram>(*compiler_, source, spec, &cancel);
    }

    // The native program, or the evaluator with a note saying why; null when cancelled.
    std::unique_ptr<StudyProgram> prepare(const study::ResolvedStudy& study,
                                          const ensemble::SpecStorage& spec, study::RunControl& control,
                                          study::RunInfo& info) {
        std::string why_not_native = unavailable_reason();
        if (compiler_ && compiler_->available()) {
            control.report_progress(0, study.system_count(), "compiling model");
            const auto start = std::chrono::steady_clock::now();
            try {
                auto native = compile_watching_cancel(study, spec, control);
                info.compile_seconds =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                info.code_path = study::CodePath::NativeCompiled;
                info.code_note = native->module().from_cache ? "cache hit" : "compiled";
                return native;
            } catch (const NativeCompileCancelled&) {
                return nullptr;
            } catch (const std::exception& e) {
                if (!options_.allow_evaluator) throw study::BackendError(e.what());
                why_not_native = e.what();
            }
        }
        const std::string unsupported = evaluator_unsupported_reason(study);
        if (!unsupported.empty())
            throw study::BackendError(unsupported + "; the native path failed: " + why_not_native);
        info.code_path = study::CodePath::Evaluator;
        info.code_note = "compiler-free evaluator: " + why_not_native.substr(0, why_not_native.find('\n'));
        return make_evaluator_program(study, spec);
    }

    CpuBackendOptions options_;
    std::unique_ptr<NativeCompiler> compiler_;
};

} // namespace

std::unique_ptr<study::Backend> make_cpu_backend(CpuBackendOptions options) {
    return std::make_unique<CpuBackend>(std::move(options));
}

std::unique_ptr<study::Backend> make_cpu_backend() {
    return make_cpu_backend(CpuBackendOptions{});
}

} // namespace bif::cpu
