// Runs the continuation chains of a study on one GPU, one chain per GPU thread. The chains
// (ResolvedStudy::chain_count, the rows of a second axis) advance together one column at a time:
// a batch of R systems, column c of every chain, starts from the final states of column c - 1 (copied
// back to the host between columns: R is small) and runs to its end in launches of ~50 ms, as in
// EnsembleRunner. A failed or escaped system breaks its chain as on the CPU: the next system of that
// chain starts from the study's initial state. The whole study reaches the caller as one batch.
#pragma once

#include "engine/cuda/ensemble_runner.h"

namespace bif::cuda {

class ChainRunner {
  public:
    // `device`: the GPU the chains run on (a handful of chains cannot fill more than one).
    ChainRunner(EnsembleDevice device, const study::ResolvedStudy& study, const ensemble::SpecStorage& spec,
                int real_bytes, study::RunControl& control, RunnerOptions options = {});

    // Returns false when cancelled (the systems run so far are still handed over, the rest not_run).
    bool run(const std::function<void(const ensemble::BatchArrays&)>& on_batch);

    // Launches made (for RunInfo notes and tests).
    long long launches() const { return launches_; }

  private:
    EnsembleDevice device_;
    const study::ResolvedStudy& study_;
    const ensemble::SpecStorage& spec_;
    int real_bytes_;
    study::RunControl& control_;
    RunnerOptions options_;
    long long launches_ = 0;
};

} // namespace bif::cuda
