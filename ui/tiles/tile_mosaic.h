// The tiles of one view put together as one study: the "cover" study spans the rectangle of tiles
// (so it is a little larger than the view), and each tile's blocks and result are placed into it
// by moving system indices. A tile's offset in the cover is a multiple of its size, a power of two
// times its largest progressive stride, so a coarse pass keeps its stride in the cover too.
#pragma once

#include "engine/jobs/result_block.h"
#include "ui/tiles/tile_grid.h"

#include <memory>
#include <set>
#include <vector>

namespace bif::tiles {

class TileMosaic {
  public:
    // `keys`: the tiles of one TileGrid::keys() answer (one level, a full rectangle).
    TileMosaic(const TileGrid& grid, const std::vector<TileKey>& keys);

    const std::vector<TileKey>& keys() const { return keys_; }
    bool holds(const TileKey& key) const;
    std::shared_ptr<const study::ResolvedStudy> cover() const { return cover_; }

    // A tile's block as a block of the cover study.
    std::shared_ptr<const jobs::ResultBlock> place(const TileKey& key, const jobs::ResultBlock& block) const;
    // A finished tile as one final block of the cover study.
    std::shared_ptr<const jobs::ResultBlock> placeWhole(const TileKey& key,
                                                        std::shared_ptr<const study::Result> tile) const;
    // Copies a finished tile into the cover's result.
    void complete(const TileKey& key, const study::Result& tile);
    bool finished() const { return done_.size() == keys_.size(); }
    std::size_t doneCount() const { return done_.size(); }
    // The cover's result so far (tiles not finished: NotRun); info.complete once all are in.
    std::shared_ptr<const study::Result> result() const;

  private:
    // The cover's system index of each system of a tile, ascending.
    std::vector<std::size_t> coverSystems(const TileKey& key,
                                          const std::vector<std::size_t>& tile_systems) const;

    std::vector<TileKey> keys_;
    std::int64_t ix0_ = 0, iy0_ = 0, tiles_x_ = 1;
    int cells_ = 1;
    std::shared_ptr<const study::ResolvedStudy> cover_;
    study::Result whole_;
    std::set<TileKey> done_;
};

} // namespace bif::tiles
