#include "engine/jobs/pass_plan.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace bif::jobs {

namespace {

// The coarsest stride up to `most` that every axis can take (2 or more points at that stride); 1
// without axes.
int coarsest_stride_within(const study::SweepGrid& grid, int most) {
    int stride = most;
    for (std::size_t a = 0; a < grid.axis_count(); ++a) {
        const std::size_t n = grid.values(a).size();
        if (n <= 1) continue; // index 0 is on every stride
        while (stride > 1 && n < std::size_t(2 * stride))
            stride /= 2;
    }
    return grid.axis_count() == 0 ? 1 : stride;
}

int coarsest_stride(const study::SweepGrid& grid) {
    return coarsest_stride_within(grid, 1 << (most_passes - 1));
}

// Calls visit(point, level) for every point of the grid in order, `level` the largest l up to
// `most_level` with every axis index of the point a multiple of 2^l (the point is on stride 2^l).
// One sweep, the axis indices counted along instead of divided out point by point: four sweeps
// with divisions took 0.09 s of the GPU server's 0.18 s to a 1024^2 map's first coarse pass.
template <class Visit>
void for_each_level(const study::SweepGrid& grid, int most_level, Visit&& visit) {
    const std::size_t axes = grid.axis_count();
    std::vector<std::size_t> index(axes), count(axes);
    for (std::size_t a = 0; a < axes; ++a) {
        count[a] = grid.values(a).size();
        index[a] = grid.system_count() > 0 ? grid.axis_index(0, a) : 0;
    }
    const bool counted = grid.consecutive(); // else each point's indices are looked up
    for (std::size_t point = 0; point < grid.system_count(); ++point) {
        int level = most_level;
        for (std::size_t a = 0; a < axes; ++a) {
            const std::size_t i = counted ? index[a] : grid.axis_index(point, a);
            if (i != 0) level = std::min(level, std::countr_zero(i));
        }
        visit(point, level);
        for (std::size_t a = 0; counted && a < axes && ++index[a] == count[a]; ++a)
            index[a] = 0;
    }
}

// The points of each pass, coarse first (pass p holds the points on stride coarsest >> p that are
// on no coarser one), each ascending.
std::vector<std::vector<std::size_t>> points_by_pass(const study::SweepGrid& grid, int coarsest) {
    const int coarsest_level = std::countr_zero(unsigned(coarsest));
    std::vector<std::vector<std::size_t>> by_pass(static_cast<std::size_t>(coarsest_level + 1));
    for_each_level(grid, coarsest_level, [&](std::size_t point, int level) {
        by_pass[std::size_t(coarsest_level - level)].push_back(point);
    });
    return by_pass;
}

// Cuts a pass into blocks, each an even spread over what the pass has left (so that every block
// samples the whole grid), their sizes doubling from `next_size` up to `limit`.
void add_blocks(PassPlan& plan, const std::vector<std::size_t>& systems, int pass, int stride,
                std::size_t limit, std::size_t& next_size) {
    std::vector<bool> taken(systems.size(), false);
    std::size_t left = systems.size();
    while (left > 0) {
        const std::size_t size = std::min(next_size, left);
        next_size = std::min(limit, next_size * 2);
        PlannedBlock block{{}, pass, stride};
        // the remaining systems at ranks floor(j * left / size), j = 0..size-1
        std::size_t rank = 0, next_rank = 0; // next_rank: the rank of the block's next system
        for (std::size_t i = 0; i < systems.size() && block.systems.size() < size; ++i) {
            if (taken[i]) continue;
            if (rank == next_rank) {
                taken[i] = true;
                block.systems.push_back(systems[i]);
                next_rank = block.systems.size() * left / size;
            }
            ++rank;
        }
        left -= size;
        plan.blocks.push_back(std::move(block));
    }
}

} // namespace

bool allows_passes(const study::ResolvedStudy& study) {
    switch (study.study.analysis) {
    case study::AnalysisKind::Bifurcation:
        return !study.is_continuation();
    case study::AnalysisKind::Lyapunov:
    case study::AnalysisKind::ParameterMap:
        return true;
    case study::AnalysisKind::Basins:
    case study::AnalysisKind::Trajectory:
    case study::AnalysisKind::PhasePlane:
        return false;
    }
    return false;
}

std::size_t block_limit(std::size_t systems, std::size_t parallel_width) {
    return std::max<std::size_t>({4096, systems / 16, 2 * parallel_width});
}

PassPlan single_block_plan(const study::ResolvedStudy& study) {
    PassPlan plan;
    plan.blocks.push_back({std::vector<std::size_t>(study.system_count()), 0, 1});
    std::iota(plan.blocks[0].systems.begin(), plan.blocks[0].systems.end(), std::size_t{0});
    return plan;
}

std::size_t points_at_stride(const study::SweepGrid& grid, std::size_t stride) {
    std::size_t points = 1;
    for (std::size_t a = 0; a < grid.axis_count(); ++a)
        points *= (grid.values(a).size() + stride - 1) / stride;
    return points;
}

// Basins in one block, after a preview of coarse points in a block of their own (its labels are
// numbered over the preview alone, so it cannot be split further). The preview stride grows past 8
// until the preview is small enough to come fast: one block cannot be cut to hurry it.
PassPlan basins_plan(const study::ResolvedStudy& study) {
    PassPlan plan = single_block_plan(study);
    int stride = coarsest_stride(study.grid);
    if (study.system_count() < smallest_progressive_grid || stride == 1) return plan;
    while (points_at_stride(study.grid, std::size_t(stride)) > largest_basin_preview &&
           coarsest_stride_within(study.grid, 2 * stride) == 2 * stride)
        stride *= 2;
    const int level = std::countr_zero(unsigned(stride));
    PlannedBlock preview{{}, 0, stride, true};
    for_each_level(study.grid, level, [&](std::size_t point, int on) {
        if (on == level) preview.systems.push_back(point);
    });
    plan.blocks[0].pass = 1;
    plan.blocks.insert(plan.blocks.begin(), std::move(preview));
    plan.pass_count = 2;
    return plan;
}

PassPlan plan_passes(const study::ResolvedStudy& study, std::size_t first_block, std::size_t parallel_width) {
    if (study.study.analysis == study::AnalysisKind::Basins) return basins_plan(study);
    const std::size_t total = study.system_count();
    if (!allows_passes(study) || total < smallest_progressive_grid ||
        (parallel_width > 0 && total <= 2 * parallel_width))
        return single_block_plan(study);
    PassPlan plan;
    const std::size_t limit = block_limit(total, parallel_width);
    std::size_t next_size = std::clamp<std::size_t>(std::max(first_block, parallel_width), 1, limit);
    const int coarsest = coarsest_stride(study.grid);
    plan.pass_count = 0;
    for (int s = coarsest; s >= 1; s /= 2)
        ++plan.pass_count;
    const std::vector<std::vector<std::size_t>> by_pass = points_by_pass(study.grid, coarsest);
    int pass = 0;
    for (int stride = coarsest; stride >= 1; stride /= 2, ++pass)
        add_blocks(plan, by_pass[std::size_t(pass)], pass, stride, limit, next_size);
    return plan;
}

} // namespace bif::jobs
