#include "block_ledger.h"

#include <algorithm>

namespace bif::cli::mpi {

BlockLedger::BlockLedger(std::size_t total_systems, std::size_t block_systems, std::size_t window)
    : total_(total_systems), block_systems_(std::max<std::size_t>(block_systems, 1)),
      window_(std::max<std::size_t>(window, 1)), block_count_(jobs::block_count(total_, block_systems_)) {}

jobs::SystemRange BlockLedger::range(std::size_t block) const {
    return jobs::block_range(block, total_, block_systems_);
}

std::optional<std::size_t> BlockLedger::block_starting_at(std::size_t first_system) const {
    if (first_system % block_systems_ != 0 || first_system >= total_) return std::nullopt;
    return first_system / block_systems_;
}

std::optional<std::size_t> BlockLedger::hand_out(int rank, Clock::time_point now) {
    while (!again_.empty()) {
        const std::size_t block = again_.front();
        again_.pop_front();
        // A late copy may have come back meanwhile.
        if (block < written_ || received_.contains(block)) continue;
        held_.emplace(rank, Holding{block, now});
        return block;
    }
    if (next_new_ >= block_count_ || next_new_ >= written_ + window_) return std::nullopt;
    held_.emplace(rank, Holding{next_new_, now});
    return next_new_++;
}

bool BlockLedger::receive(int rank, std::size_t block, std::shared_ptr<const jobs::ResultBlock> result) {
    for (auto [held, end] = held_.equal_range(rank); held != end; ++held)
        if (held->second.block == block) {
            held_.erase(held);
            break;
        }
    unresponsive_.erase(rank);
    if (block < written_ || received_.contains(block)) return false;
    received_.emplace(block, std::move(result));
    return true;
}

std::vector<std::shared_ptr<const jobs::ResultBlock>> BlockLedger::take_in_order() {
    std::vector<std::shared_ptr<const jobs::ResultBlock>> ready;
    for (auto next = received_.find(written_); next != received_.end(); next = received_.find(written_)) {
        ready.push_back(std::move(next->second));
        received_.erase(next);
        ++written_;
    }
    return ready;
}

std::vector<int> BlockLedger::expire(Clock::time_point now, Clock::duration timeout) {
    std::vector<int> expired;
    for (auto it = held_.begin(); it != held_.end();) {
        if (now - it->second.since < timeout) {
            ++it;
            continue;
        }
        if (expired.empty() || expired.back() != it->first) expired.push_back(it->first); // by rank
        unresponsive_.insert(it->first);
        again_.push_back(it->second.block);
        it = held_.erase(it);
    }
    return expired;
}

} // namespace bif::cli::mpi
