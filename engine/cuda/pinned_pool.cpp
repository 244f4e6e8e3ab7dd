#include "engine/cuda/pinned_pool.h"

#include <bit>
#include <utility>

namespace bif::cuda {

PooledPinned::PooledPinned(std::shared_ptr<PinnedPool> pool, PinnedBuffer buffer)
    : pool_(std::move(pool)), buffer_(std::move(buffer)) {}

PooledPinned::PooledPinned(PooledPinned&& other) noexcept
    : pool_(std::move(other.pool_)), buffer_(std::move(other.buffer_)) {}

PooledPinned& PooledPinned::operator=(PooledPinned&& other) noexcept {
    if (this != &other) {
        give_back();
        pool_ = std::move(other.pool_);
        buffer_ = std::move(other.buffer_);
    }
    return *this;
}

PooledPinned::~PooledPinned() {
    give_back();
}

void PooledPinned::give_back() noexcept {
    if (pool_ && buffer_.size() > 0) pool_->keep(std::move(buffer_));
    buffer_ = PinnedBuffer();
    pool_.reset();
}

std::shared_ptr<PinnedPool> PinnedPool::make(std::size_t limit) {
    return std::shared_ptr<PinnedPool>(new PinnedPool(limit));
}

std::size_t PinnedPool::rounded(std::size_t bytes) {
    if (bytes <= 4096) return 4096;
    const std::size_t step = std::bit_ceil(bytes) / 8;
    return (bytes + step - 1) / step * step;
}

PooledPinned PinnedPool::take(std::size_t bytes, const Allocate& allocate) {
    if (bytes == 0) return {};
    {
        std::lock_guard lock(mutex_);
        auto best = kept_.end();
        for (auto it = kept_.begin(); it != kept_.end(); ++it)
            if (it->size() >= bytes && it->size() / 4 <= rounded(bytes) &&
                (best == kept_.end() || it->size() < best->size()))
                best = it;
        if (best != kept_.end()) {
            PinnedBuffer buffer = std::move(*best);
            kept_.erase(best);
            kept_bytes_ -= buffer.size();
            return PooledPinned(shared_from_this(), std::move(buffer));
        }
    }
    return PooledPinned(shared_from_this(), allocate(rounded(bytes)));
}

void PinnedPool::keep(PinnedBuffer buffer) noexcept {
    if (!buffer.pinned() || buffer.size() > limit_ / 2) return; // freed here
    std::list<PinnedBuffer> dropped;                            // freed outside the lock
    {
        std::lock_guard lock(mutex_);
        kept_bytes_ += buffer.size();
        kept_.push_front(std::move(buffer));
        while (kept_bytes_ > limit_) {
            kept_bytes_ -= kept_.back().size();
            dropped.splice(dropped.begin(), kept_, std::prev(kept_.end()));
        }
    }
}

std::size_t PinnedPool::kept_bytes() const {
    std::lock_guard lock(mutex_);
    return kept_bytes_;
}

std::size_t PinnedPool::kept_buffers() const {
    std::lock_guard lock(mutex_);
    return kept_.size();
}

} // namespace bif::cuda
