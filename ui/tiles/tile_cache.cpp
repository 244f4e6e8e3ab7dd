#include "ui/tiles/tile_cache.h"

namespace bif::tiles {

TileCache::TileCache(std::size_t byte_limit) : byte_limit_(byte_limit) {}

std::size_t TileCache::bytes_of(const study::Result& r) {
    std::size_t bytes = sizeof(study::Result) + r.status.size() * sizeof(study::SystemStatus);
    for (const auto& c : r.axes)
        bytes += c.values.size() * sizeof(double);
    for (const auto& c : r.scalars)
        bytes += c.values.size() * sizeof(double);
    bytes += r.points.values.size() * sizeof(double) + r.points.rows_filled.size() * sizeof(std::uint32_t);
    return bytes;
}

std::shared_ptr<const study::Result> TileCache::find(const TileKey& key) {
    const auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    uses_.splice(uses_.begin(), uses_, it->second.use);
    return it->second.result;
}

void TileCache::insert(const TileKey& key, std::shared_ptr<const study::Result> result) {
    if (!result) return;
    if (const auto old = entries_.find(key); old != entries_.end()) {
        bytes_ -= old->second.bytes;
        uses_.erase(old->second.use);
        entries_.erase(old);
    }
    uses_.push_front(key);
    const std::size_t bytes = bytes_of(*result);
    entries_.emplace(key, Entry{std::move(result), bytes, uses_.begin()});
    bytes_ += bytes;
    evict();
}

void TileCache::setByteLimit(std::size_t bytes) {
    byte_limit_ = bytes;
    evict();
}

void TileCache::evict() {
    while (bytes_ > byte_limit_ && uses_.size() > 1) {
        const auto it = entries_.find(uses_.back());
        bytes_ -= it->second.bytes;
        entries_.erase(it);
        uses_.pop_back();
        ++evictions_;
    }
}

} // namespace bif::tiles
