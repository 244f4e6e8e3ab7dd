// The CUDA ensemble runner on a resolved study with its options open (lanes, batch sizes), as the
// backend runs it (engine/cuda/cuda_backend.cpp): compiled once per architecture, the batches
// assembled into a study::Result, and what the runner did recorded. Shared by the chunking test and
// the chunking benchmark.
#pragma once

#include "engine/cuda/device_info.h"
#include "engine/cuda/ensemble_runner.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module_compiler.h"
#include "engine/ensemble/result_assembly.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/resolved_study.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace bif::cuda::testing {

struct RunnerRun {
    study::Result result;
    std::vector<std::pair<std::size_t, std::size_t>> batches; // (first, count) as handed over
    bool complete = false;
    long long launches = 0;
    int lanes_used = 0;
    bool pinned = false;
    double seconds = 0.0; // EnsembleRunner::run, storing the batches included (when assembled)
};

class RunnerHarness {
  public:
    // Compiles the study for every visible GPU's architecture.
    RunnerHarness(std::shared_ptr<const study::ResolvedStudy> study, codegen::Precision precision)
        : study_(std::move(study)), spec_(*study_),
          real_bytes_(precision == codegen::Precision::Float ? 4 : 8) {
        const ModuleCompiler compiler;
        for (const DeviceInfo& device : list_devices()) {
            const Target target = compiler.target_for(device);
            auto found = modules_.find(target.name());
            if (found == modules_.end()) {
                const int min_blocks =
                    ensemble_min_blocks(*study_, precision, study_->system_count(), device.multiprocessors);
                const CompileRequest request =
                    ensemble_request(*study_, precision, spec_.program(), min_blocks);
                found = modules_.emplace(target.name(), compiler.compile(request, target)).first;
            }
            devices_.push_back({Context(device.ordinal), &found->second});
        }
    }

    std::size_t device_count() const { return devices_.size(); }

    // On the first `devices` GPUs (0: all). `assemble` false: the batches are not stored in the
    // result (to time the runner alone).
    RunnerRun run(const RunnerOptions& options, std::size_t devices = 0, bool assemble = true) const {
        std::vector<EnsembleDevice> chosen = devices_;
        if (devices > 0 && devices < chosen.size()) chosen.resize(devices);
        RunnerRun run;
        run.result = study::allocate_result(*study_);
        ensemble::ResultAssembly assembly(*study_, run.result);
        const std::atomic<bool> cancel{false};
        study::RunControl control(cancel, {});
        EnsembleRunner runner(std::move(chosen), *study_, spec_, real_bytes_, control, options);
        const auto start = std::chrono::steady_clock::now();
        run.complete = runner.run([&](const ensemble::BatchArrays& batch) {
            run.batches.emplace_back(batch.first, batch.count);
            if (assemble) assembly.store(batch);
        });
        run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        run.launches = runner.launches();
        run.lanes_used = runner.lanes_used();
        run.pinned = runner.pinned();
        return run;
    }

  private:
    std::shared_ptr<const study::ResolvedStudy> study_;
    ensemble::SpecStorage spec_;
    int real_bytes_;
    std::map<std::string, CompiledModule> modules_; // by target; node-based, so pointers stay
    std::vector<EnsembleDevice> devices_;
};

} // namespace bif::cuda::testing
