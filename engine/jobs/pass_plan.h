// The passes and blocks of a progressive job (see result_block.h): which systems each block runs.
//
// Pass count: strides 8, 4, 2, 1 when every swept axis (of more than one point) has at least 16
// points, fewer when the shortest axis is shorter (a stride s needs 2s points, so that the coarse
// pass still shows two or more points along it); one pass for grids under 64 points, continuation
// sweeps (one chain up and down), basins (attractor labels are numbered in system order across the
// whole grid) and trajectories. Basins over 64 points or more get a preview instead: their coarse
// points (stride 8, 4 or 2 as above, coarser still while the preview would hold over 128 points)
// in a provisional block of their own, then every system in one block (pass 2 of 2).
//
// Blocks: the first block of a job is small (first_block systems: the first pixels must come fast
// however costly a system is), and each next block may hold twice as many, up to
// max(4096, systems / 16), so that blocks keep coming on big grids. Each block is an even spread
// over what its pass has left, so every block samples the whole grid. A study that does not allow
// passes is one block.
#pragma once

#include "engine/study/resolved_study.h"

#include <cstddef>
#include <vector>

namespace bif::jobs {

struct PlannedBlock {
    std::vector<std::size_t> systems; // ascending
    int pass = 0;
    int stride = 1;
    // Computed for a first look only and published as provisional: a later block holds these
    // systems again.
    bool preview = false;
};

struct PassPlan {
    int pass_count = 1;
    // Pass by pass, coarse first; every system in exactly one block that is not a preview.
    std::vector<PlannedBlock> blocks;
};

inline constexpr std::size_t smallest_progressive_grid = 64;
inline constexpr int most_passes = 4;
inline constexpr std::size_t default_first_block = 16;
inline constexpr std::size_t largest_basin_preview = 128;

// Whether the study may run in passes at all (its analysis and sweep allow it).
bool allows_passes(const study::ResolvedStudy& study);

// The progressive plan, or one pass with one block holding every system when it does not allow
// passes or its grid is too small.
// With `parallel_width` (Backend::parallel_systems: a GPU, which runs that many systems in the time of
// one), no block is smaller than the width unless its pass is, and a grid of at most twice the width
// runs in one pass: its coarse passes would cost a GPU what the whole grid does (the MPGOS diagram,
// 46080 systems on an H100, took 3.6 s in passes of blocks sized for CPU threads, 0.23 s in one).
PassPlan plan_passes(const study::ResolvedStudy& study, std::size_t first_block = default_first_block,
                     std::size_t parallel_width = 0);

// One pass, one block holding every system: what a job that is not progressive publishes.
PassPlan single_block_plan(const study::ResolvedStudy& study);

// The largest number of systems in one block of a job over `systems` systems (on a backend that runs
// `parallel_width` systems side by side: at least twice that).
std::size_t block_limit(std::size_t systems, std::size_t parallel_width = 0);

} // namespace bif::jobs
