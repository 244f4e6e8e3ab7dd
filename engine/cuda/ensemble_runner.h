// Runs every system of a study on every visible GPU: one worker thread per device takes batches of
// consecutive systems from a shared counter, integrates each batch in launches of ~50 ms (the
// per-system state stays in device memory between launches, so a display GPU never reaches its
// watchdog and a cancel is seen within one launch), and hands the finished batches to the caller
// in system order on the calling thread.
#pragma once

#include "engine/cpu/batch_arrays.h"
#include "engine/cpu/study_spec.h"
#include "engine/cuda/compile_request.h"
#include "engine/cuda/context.h"
#include "engine/study/backend.h"

#include <functional>
#include <vector>

namespace bif::cuda {

struct EnsembleDevice {
    Context context;
    const CompiledModule* module; // compiled for this device's architecture
};

struct RunnerOptions {
    double slice_seconds = 0.05;   // target length of one launch
    long long first_budget = 4096; // attempted steps per system in the first launch (whole slices)
    std::size_t max_batch = 0;     // systems per batch at most (0: as memory allows)
};

class EnsembleRunner {
  public:
    EnsembleRunner(std::vector<EnsembleDevice> devices, const study::ResolvedStudy& study,
                   const cpu::SpecStorage& spec, int real_bytes, study::RunControl& control,
                   RunnerOptions options = {});

    // Returns false when cancelled (finished batches are still handed over). Errors on a device
    // (CudaError, ...) are rethrown here after every worker stopped.
    bool run(const std::function<void(const cpu::BatchArrays&)>& on_batch);

    // Launches made and the largest step budget of one launch (for RunInfo notes and tests).
    long long launches() const { return launches_; }

  private:
    std::vector<EnsembleDevice> devices_;
    const study::ResolvedStudy& study_;
    const cpu::SpecStorage& spec_;
    int real_bytes_;
    study::RunControl& control_;
    RunnerOptions options_;
    long long launches_ = 0;
};

} // namespace bif::cuda
