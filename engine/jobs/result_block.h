// Progressive results: a running job publishes the systems it has finished as immutable blocks, so
// that a plot fills in while the study runs.
//
// A progressive job runs its grid in passes, coarse first. With stride s(p) = 2^(P-1-p) for pass p of
// P, pass p computes the grid points whose index along every axis is a multiple of s(p), less those
// an earlier pass computed; the last pass (stride 1) completes the grid. A view may paint each system
// of a pass as an s(p) x s(p) cell (s(p) along a 1-axis sweep) until finer passes cover it. A pass may
// be split into several blocks, each an even spread over the grid (its systems need not be
// neighbours); each system appears in exactly one block of a job (a block that a later block
// supersedes says so, see `provisional`). engine/jobs/pass_plan.h says which studies run so.
#pragma once

#include "engine/study/result.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace bif::jobs {

struct ResultBlock {
    // allocate_result's layout for these systems alone, in the order of `systems`: axes, status,
    // scalars and point rows of block row i belong to the whole study's system systems[i].
    std::shared_ptr<const study::Result> result;
    std::vector<std::size_t> systems; // ascending system indices in the whole study
    int pass = 0;                     // 0-based, coarse first
    int pass_count = 1;
    int stride = 1; // grid stride of this pass (see above)
    // Computed on a stand-in code path (the compiler-free evaluator while native or GPU code was
    // still compiling), or a preview of a study that runs in one block (basins: its attractor
    // labels are numbered over the preview alone): the same systems arrive again later, final.
    bool provisional = false;
};

} // namespace bif::jobs
