// Runs a study block by block as a PassPlan says, publishing each finished block and merging it into
// the whole result (see result_block.h for what a block promises).
//
// Each block runs as a copy of the study whose grid is the subset of its systems (SweepGrid::subset,
// or subset_range for the consecutive blocks of streamed runs), so its values are bit for bit those
// of a one-pass run. With a stand-in (a backend that starts at once) and a selected backend that
// would compile first, the selected backend's prepare() runs on a second thread while the stand-in
// computes blocks, published as provisional; once prepared, the
// plan runs again from its first block on the selected backend. The whole result holds only the
// selected backend's values, so it equals a one-pass run; provisional values (the stand-in's and
// those of preview blocks) only ever reach the block sink.
#pragma once

#include "engine/jobs/block_range.h"
#include "engine/jobs/pass_plan.h"
#include "engine/jobs/result_block.h"
#include "engine/study/backend.h"

#include <atomic>
#include <functional>
#include <memory>

namespace bif::jobs {

using BlockSink = std::function<void(std::shared_ptr<const ResultBlock>)>;

struct PassRunSetup {
    study::Backend* backend = nullptr;        // the selected backend
    std::shared_ptr<study::Backend> stand_in; // may be null
    const std::atomic<bool>* cancel = nullptr;
    study::RunControl* control = nullptr; // the job's: progress over all passes goes there
    BlockSink on_block;                   // may be empty
    // false: blocks go to on_block only and the returned result holds system_count and info alone.
    bool keep_whole = true;
    // Streamed runs (run_in_order without keep_whole, run_ranges): how many blocks run at once, each
    // on its own thread, still published in system order. 2 lets one block's host work on a GPU
    // backend (splitting, allocating, batches, assembly) run while the other block's kernels run;
    // the backend must then allow concurrent run() calls. One block waits for its turn to be
    // published at most, so host memory grows by one block.
    int blocks_at_once = 1;
};

// The merged whole result (allocate_result's layout) with info.complete set. Throws what the
// selected backend throws. On a cancel, the systems of finished blocks and the finished systems of
// the interrupted block keep their values; the rest are NotRun.
study::Result run_in_passes(const study::ResolvedStudy& study, const PassPlan& plan,
                            const PassRunSetup& setup);

// Runs the systems in order, in blocks of `block_systems` consecutive systems (one block when the
// study does not allow cutting, see allows_passes), each published as final; no stand-in.
study::Result run_in_order(const study::ResolvedStudy& study, std::size_t block_systems,
                           const PassRunSetup& setup);

// Runs the ranges `next` gives, one block each, published as final, until it gives nullopt; the
// returned result holds what run_in_order's does (setup.keep_whole must be false).
study::Result run_ranges(const study::ResolvedStudy& study, const RangeSource& next,
                         const PassRunSetup& setup);

} // namespace bif::jobs
