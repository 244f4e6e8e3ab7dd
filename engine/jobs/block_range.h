// Ranges of consecutive systems: the blocks that a streamed run (JobOptions::keep_result false)
// runs one after another, and that a run spread over several processes (bifscope-cli under mpirun)
// hands out. Block b of a study cut into blocks of `block_systems` holds the systems
// [b * block_systems, min((b + 1) * block_systems, total)).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>

namespace bif::jobs {

struct SystemRange {
    std::size_t first = 0;
    std::size_t count = 0;
};

// Where a streamed job takes its next range from; nullopt ends the job. Called on the job's worker
// thread before each block; it may block (waiting for another process to hand a range out).
using RangeSource = std::function<std::optional<SystemRange>()>;

// How many blocks of block_systems (at least 1) cover total systems.
inline std::size_t block_count(std::size_t total, std::size_t block_systems) {
    block_systems = std::max<std::size_t>(block_systems, 1);
    return (total + block_systems - 1) / block_systems;
}

// Block `index` of that cut.
inline SystemRange block_range(std::size_t index, std::size_t total, std::size_t block_systems) {
    block_systems = std::max<std::size_t>(block_systems, 1);
    const std::size_t first = std::min(index * block_systems, total);
    return {first, std::min(block_systems, total - first)};
}

} // namespace bif::jobs
