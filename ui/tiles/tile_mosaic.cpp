#include "ui/tiles/tile_mosaic.h"

#include "engine/jobs/result_merge.h"

#include <algorithm>
#include <numeric>

namespace bif::tiles {

TileMosaic::TileMosaic(const TileGrid& grid, const std::vector<TileKey>& keys)
    : keys_(keys), cells_(grid.tileCells()) {
    std::int64_t ix1 = 0, iy1 = 0;
    for (std::size_t k = 0; k < keys_.size(); ++k) {
        const TileKey& key = keys_[k];
        ix0_ = k == 0 ? key.ix : std::min(ix0_, key.ix);
        iy0_ = k == 0 ? key.iy : std::min(iy0_, key.iy);
        ix1 = k == 0 ? key.ix : std::max(ix1, key.ix);
        iy1 = k == 0 ? key.iy : std::max(iy1, key.iy);
    }
    tiles_x_ = ix1 - ix0_ + 1;
    const int lx = keys_.empty() ? 0 : keys_.front().level_x, ly = keys_.empty() ? 0 : keys_.front().level_y;
    cover_ = grid.rectStudy({lx, ly, ix0_, iy0_, tiles_x_, iy1 - iy0_ + 1});
    whole_ = study::allocate_result(*cover_);
    whole_.info.complete = false;
}

bool TileMosaic::holds(const TileKey& key) const {
    return std::find(keys_.begin(), keys_.end(), key) != keys_.end();
}

std::vector<std::size_t> TileMosaic::coverSystems(const TileKey& key,
                                                  const std::vector<std::size_t>& tile_systems) const {
    const std::size_t width = std::size_t(tiles_x_) * cells_;
    const std::size_t x0 = std::size_t(key.ix - ix0_) * cells_, y0 = std::size_t(key.iy - iy0_) * cells_;
    std::vector<std::size_t> out(tile_systems.size());
    // First axis fastest (SweepGrid): tile point (i, j) is cover point (x0 + i, y0 + j).
    for (std::size_t k = 0; k < tile_systems.size(); ++k) {
        const std::size_t s = tile_systems[k];
        out[k] = (y0 + s / cells_) * width + x0 + s % cells_;
    }
    return out;
}

std::shared_ptr<const jobs::ResultBlock> TileMosaic::place(const TileKey& key,
                                                           const jobs::ResultBlock& block) const {
    auto placed = std::make_shared<jobs::ResultBlock>(block);
    placed->systems = coverSystems(key, block.systems);
    return placed;
}

std::shared_ptr<const jobs::ResultBlock>
TileMosaic::placeWhole(const TileKey& key, std::shared_ptr<const study::Result> tile) const {
    jobs::ResultBlock block;
    std::vector<std::size_t> all(tile->system_count);
    std::iota(all.begin(), all.end(), std::size_t{0});
    block.systems = coverSystems(key, all);
    block.result = std::move(tile);
    return std::make_shared<const jobs::ResultBlock>(std::move(block));
}

void TileMosaic::complete(const TileKey& key, const study::Result& tile) {
    if (!holds(key) || !done_.insert(key).second) return;
    std::vector<std::size_t> all(tile.system_count);
    std::iota(all.begin(), all.end(), std::size_t{0});
    jobs::scatter_block(tile, coverSystems(key, all), whole_);
    jobs::merge_info(whole_.info, tile.info);
    whole_.info.complete = finished();
}

std::shared_ptr<const study::Result> TileMosaic::result() const {
    return std::make_shared<const study::Result>(whole_);
}

} // namespace bif::tiles
