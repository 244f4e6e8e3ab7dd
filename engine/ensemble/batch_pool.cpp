#include "engine/ensemble/batch_pool.h"

#include <algorithm>

namespace bif::ensemble {

namespace {

template <class T>
std::size_t bytes_of(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

} // namespace

std::size_t held_bytes(const BatchArrays& b) {
    return bytes_of(b.axis_values) + bytes_of(b.initial_override) + bytes_of(b.carry) + bytes_of(b.points) +
           bytes_of(b.scalars) + bytes_of(b.status) + bytes_of(b.rows_filled) + bytes_of(b.final_state);
}

BatchPool& BatchPool::process() {
    static BatchPool pool(default_pool_bytes);
    return pool;
}

std::optional<BatchArrays> BatchPool::take() {
    std::lock_guard lock(mutex_);
    if (kept_.empty()) return std::nullopt;
    const auto biggest = std::max_element(kept_.begin(), kept_.end(), [](const auto& a, const auto& b) {
        return held_bytes(a) < held_bytes(b);
    });
    std::optional<BatchArrays> batch(std::move(*biggest));
    kept_.erase(biggest);
    bytes_ -= held_bytes(*batch);
    return batch;
}

void BatchPool::give(BatchArrays batch) {
    const std::size_t bytes = held_bytes(batch);
    if (bytes == 0) return;
    std::lock_guard lock(mutex_);
    if (bytes_ + bytes > most_bytes_) return; // freed on return, after the lock
    bytes_ += bytes;
    kept_.push_back(std::move(batch));
}

std::size_t BatchPool::bytes() const {
    std::lock_guard lock(mutex_);
    return bytes_;
}

std::size_t BatchPool::size() const {
    std::lock_guard lock(mutex_);
    return kept_.size();
}

} // namespace bif::ensemble
