// Runs every system of a study through a StudyProgram on a pool of std::threads.
//
// Systems go in batches that fit the memory budget (RunControl::systems_per_chunk); inside a batch
// the threads take work units of a few consecutive systems from a shared counter (neighbours cost
// alike; the dynamic hand-out balances the rest). Each system advances in slices of a fixed number of
// steps (so results do not depend on timing): a cancel is seen between slices, well within 100 ms.
// Continuation studies run chain by chain (ResolvedStudy::system_count: each row up the first axis,
// then down from where the way up ended), each system starting from the final state of the one
// before it; the chains of several rows run on the threads in parallel.
#pragma once

#include "engine/cpu/study_program.h"
#include "engine/ensemble/batch_arrays.h"
#include "engine/study/backend.h"

#include <functional>

namespace bif::cpu {

class EnsembleRunner {
  public:
    EnsembleRunner(const StudyProgram& program, const study::ResolvedStudy& study,
                   const ensemble::SpecStorage& spec, study::RunControl& control);

    // Calls on_batch for each finished batch, in system order, on the calling thread. Returns false
    // when cancelled (the batch in progress is still handed over, its unfinished systems not_run).
    bool run(const std::function<void(const ensemble::BatchArrays&)>& on_batch);

  private:
    bool run_batch(ensemble::BatchArrays& batch);
    bool run_chains(ensemble::BatchArrays& batch);
    // Advances one system to its end; false when cancelled first.
    bool run_system(const ensemble::View<double>& view, std::size_t index) const;
    void system_finished();

    const StudyProgram& program_;
    const study::ResolvedStudy& study_;
    const ensemble::SpecStorage& spec_;
    study::RunControl& control_;
    std::size_t total_ = 0;
    std::atomic<std::size_t> done_{0};
};

} // namespace bif::cpu
