// Host batches kept from one run for the next of the same process (issue 36). A GPU run's host
// batches are tens to hundreds of megabytes (a 2^23-system diagram's points are 200 MB), above
// glibc's largest mmap threshold: freed at the end of a run they went back to the system, and the
// next run paid their page faults again, on the host's critical path between download and store.
// A run takes its first batches from here and gives its spares back when it is done.
//
// A batch taken from the pool holds a previous run's values: whoever takes one must write every
// array it reads, as the CUDA runner's refill (BatchFill::OutputsOnly) and download do for the spares
// it already reused within a run.
#pragma once

#include "engine/ensemble/batch_arrays.h"

#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

namespace bif::ensemble {

// The bytes a batch's arrays hold (their capacity, not their size).
std::size_t held_bytes(const BatchArrays& batch);

class BatchPool {
  public:
    // The process's pool, holding at most default_pool_bytes.
    static BatchPool& process();

    // 512 MiB: the host batches of a 2^23-system, three-value diagram, with room to spare; more stays
    // with the system (a GUI process would otherwise hold it long after a big run).
    static constexpr std::size_t default_pool_bytes = std::size_t(512) << 20;

    explicit BatchPool(std::size_t most_bytes) : most_bytes_(most_bytes) {}

    // A kept batch (the one holding the most memory), or none.
    std::optional<BatchArrays> take();
    // Keeps `batch` if it fits beside the others; else it is freed.
    void give(BatchArrays batch);
    std::size_t bytes() const;
    std::size_t size() const;

  private:
    mutable std::mutex mutex_;
    std::vector<BatchArrays> kept_;
    std::size_t bytes_ = 0;
    const std::size_t most_bytes_;
};

} // namespace bif::ensemble
