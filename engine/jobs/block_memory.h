// Memory of a streamed run's blocks kept for the next block. A streamed run (engine/jobs/job.cpp)
// allocates the same block-sized arrays for every block (the block's systems, its Result columns,
// the backend's batches) and frees them when the block is written. glibc serves allocations above
// its mmap threshold (dynamic, at most 32 MiB) with fresh mappings and unmaps them on free, so every
// block paid the page faults of fresh memory again: about half the host time of splitting and
// allocating a block of a 10^8-system map (tests/bench/bench_host_side.cpp).
#pragma once

#include <cstddef>

namespace bif::jobs {

// Systems per streamed block at most such that a per-system column of 8-byte values stays below
// glibc's largest mmap threshold (32 MiB), with room for the allocator's header; a whole number of
// the HDF5 result's chunks (2^18 systems, engine/study/result_hdf5.cpp), so that blocks write whole
// chunks only.
inline constexpr std::size_t reusable_block_systems = (std::size_t{1} << 22) - (std::size_t{1} << 18);

// From the first call on, for the whole process: allocations up to 32 MiB come from the heap and
// freed memory stays there for reuse (glibc's mmap threshold fixed at 32 MiB, its trim threshold
// raised to 1 GiB), so the peak resident memory stays what it was while later blocks reuse it.
// Does nothing without glibc, and when BIF_KEEP_BLOCK_MEMORY=0 (for measuring the difference).
void keep_block_memory();

} // namespace bif::jobs
