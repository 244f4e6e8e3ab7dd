// Tiles run together as one job. A tile of 256 x 256 systems is half of what an H100 keeps in flight
// at once, and a GPU job costs one system's latency however few systems it holds: sixteen tiles run
// one after another take sixteen times as long as the same tiles run as one rectangle. So the
// scheduler grows a rectangle of queued tiles around the one it would run next, runs the rectangle's
// study (TileGrid::rectStudy, whose values are the lattice's, so each tile's numbers are those of
// the tile run alone) and hands each tile its own part of every block and of the result.
#pragma once

#include "engine/jobs/result_block.h"
#include "ui/tiles/tile_grid.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace bif::tiles {

class TileBatch {
  public:
    // The largest rectangle grown from `seed` (a queued tile) whose tiles are all in `queued` and
    // number at most `max_tiles`: it takes a whole row or column of neighbours at a time, so a view
    // with nothing cached runs as one rectangle and a ring around cached tiles as a few strips.
    static TileBatch grow(const TileKey& seed, const std::deque<TileKey>& queued, std::size_t max_tiles);

    const TileRect& rect() const { return rect_; }
    // Its tiles, in the order of the queue they were taken from.
    const std::vector<TileKey>& keys() const { return keys_; }
    bool holds(const TileKey& key) const {
        return rect_.contains(key) && key.cells == cells_ && key.study == study_;
    }

    // A block of the rectangle's job, as a block of each tile it touches (systems renumbered to the
    // tile's grid; the pass, stride and provisional mark kept).
    std::vector<std::pair<TileKey, std::shared_ptr<const jobs::ResultBlock>>>
    split(const jobs::ResultBlock& block) const;
    // The rectangle's finished result, as each tile's.
    std::vector<std::pair<TileKey, std::shared_ptr<const study::Result>>>
    split(const study::Result& result) const;

  private:
    TileBatch(const TileKey& seed) : rect_(TileRect::of(seed)), cells_(seed.cells), study_(seed.study) {}
    TileKey keyAt(std::int64_t ix, std::int64_t iy) const {
        return {study_, rect_.level_x, rect_.level_y, ix, iy, cells_};
    }
    // The tile holding rectangle system `system`, and that system's index in the tile.
    std::pair<std::size_t, std::size_t> locate(std::size_t system) const;

    TileRect rect_;
    int cells_;
    std::string study_;
    std::vector<TileKey> keys_;
};

} // namespace bif::tiles
