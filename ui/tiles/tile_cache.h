// Finished tiles, kept so that panning or zooming back shows them again without a run. Bounded by
// memory: past the bound, the tiles used least recently go first.
#pragma once

#include "engine/study/result.h"
#include "ui/tiles/tile_grid.h"

#include <cstddef>
#include <list>
#include <map>
#include <memory>

namespace bif::tiles {

class TileCache {
  public:
    explicit TileCache(std::size_t byte_limit = std::size_t(256) << 20);

    // The tile's result, now the most recently used; null when not kept.
    std::shared_ptr<const study::Result> find(const TileKey& key);
    bool contains(const TileKey& key) const { return entries_.count(key) != 0; }
    // Keeps a finished tile (replacing an older result of the same key), then evicts down to the limit;
    // the tile just added stays even when it alone exceeds it.
    void insert(const TileKey& key, std::shared_ptr<const study::Result> result);
    void setByteLimit(std::size_t bytes);

    std::size_t size() const { return entries_.size(); }
    std::size_t bytes() const { return bytes_; }
    std::size_t evictions() const { return evictions_; }

    // What a result holds in memory, near enough for the bound: its columns and point rows.
    static std::size_t bytes_of(const study::Result& result);

  private:
    struct Entry {
        std::shared_ptr<const study::Result> result;
        std::size_t bytes = 0;
        std::list<TileKey>::iterator use; // position in uses_
    };
    void evict();

    std::map<TileKey, Entry> entries_;
    std::list<TileKey> uses_; // most recent first
    std::size_t byte_limit_;
    std::size_t bytes_ = 0;
    std::size_t evictions_ = 0;
};

} // namespace bif::tiles
