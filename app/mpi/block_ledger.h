// The coordinator's book of a distributed run (no MPI here): which block of consecutive systems each
// rank holds, which came back, and which can go to the output, in system order.
//
// Blocks are handed out on request, lowest first, so that a rank that finishes early takes more
// (chaotic parameter regions cost more). Only blocks within `window` of the first one not yet
// written are handed out, so the finished blocks waiting for a slow one stay few. A block held
// longer than the timeout is handed out again (its holder is marked unresponsive); whichever copy
// comes back first is kept, the other dropped (their values are the same).
#pragma once

#include "engine/jobs/block_range.h"
#include "engine/jobs/result_block.h"

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

namespace bif::cli::mpi {

class BlockLedger {
  public:
    using Clock = std::chrono::steady_clock;

    BlockLedger(std::size_t total_systems, std::size_t block_systems, std::size_t window);

    std::size_t block_count() const { return block_count_; }
    jobs::SystemRange range(std::size_t block) const;
    // The block whose first system this is; nullopt when no block starts there.
    std::optional<std::size_t> block_starting_at(std::size_t first_system) const;

    // The next block for `rank` (a rank asks when it finished one; the book would let it hold
    // several), or nullopt when none may go out now (all out, or the window full).
    std::optional<std::size_t> hand_out(int rank, Clock::time_point now);
    // A finished block from `rank`; false when a copy came back already (dropped).
    bool receive(int rank, std::size_t block, std::shared_ptr<const jobs::ResultBlock> result);
    // The received blocks that are next in system order, taken out of the book.
    std::vector<std::shared_ptr<const jobs::ResultBlock>> take_in_order();

    // Ranks newly found holding a block longer than `timeout`: their blocks go out again.
    std::vector<int> expire(Clock::time_point now, Clock::duration timeout);
    // Ranks marked unresponsive and not heard from since.
    const std::set<int>& unresponsive() const { return unresponsive_; }
    // Whether `rank` holds a block now (one or more).
    bool holds(int rank) const { return held_.contains(rank); }

    bool all_written() const { return written_ == block_count_; }
    std::size_t blocks_written() const { return written_; }

  private:
    struct Holding {
        std::size_t block;
        Clock::time_point since;
    };
    std::size_t total_, block_systems_, window_, block_count_;
    std::size_t next_new_ = 0; // blocks below it went out at least once
    std::size_t written_ = 0;  // blocks below it were taken in order
    std::deque<std::size_t> again_;
    std::multimap<int, Holding> held_;
    std::map<std::size_t, std::shared_ptr<const jobs::ResultBlock>> received_;
    std::set<int> unresponsive_;
};

} // namespace bif::cli::mpi
