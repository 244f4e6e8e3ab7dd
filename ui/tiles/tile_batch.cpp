#include "ui/tiles/tile_batch.h"

#include "engine/jobs/result_merge.h"

#include <algorithm>

namespace bif::tiles {

TileBatch TileBatch::grow(const TileKey& seed, const std::deque<TileKey>& queued, std::size_t max_tiles) {
    TileBatch batch(seed);
    TileRect& r = batch.rect_;
    const auto is_queued = [&](std::int64_t ix, std::int64_t iy) {
        return std::find(queued.begin(), queued.end(), batch.keyAt(ix, iy)) != queued.end();
    };
    // Whether the row (along x) or column (along y) of tiles beside the rectangle is all queued.
    const auto row_queued = [&](std::int64_t iy) {
        for (std::int64_t ix = r.ix0; ix < r.ix0 + r.nx; ++ix)
            if (!is_queued(ix, iy)) return false;
        return true;
    };
    const auto column_queued = [&](std::int64_t ix) {
        for (std::int64_t iy = r.iy0; iy < r.iy0 + r.ny; ++iy)
            if (!is_queued(ix, iy)) return false;
        return true;
    };
    for (bool grew = true; grew;) {
        grew = false;
        if (std::size_t(r.nx + 1) * std::size_t(r.ny) <= max_tiles) {
            if (column_queued(r.ix0 + r.nx)) ++r.nx, grew = true;
            if (std::size_t(r.nx + 1) * std::size_t(r.ny) <= max_tiles && column_queued(r.ix0 - 1))
                --r.ix0, ++r.nx, grew = true;
        }
        if (std::size_t(r.nx) * std::size_t(r.ny + 1) <= max_tiles) {
            if (row_queued(r.iy0 + r.ny)) ++r.ny, grew = true;
            if (std::size_t(r.nx) * std::size_t(r.ny + 1) <= max_tiles && row_queued(r.iy0 - 1))
                --r.iy0, ++r.ny, grew = true;
        }
    }
    for (const TileKey& key : queued)
        if (batch.holds(key)) batch.keys_.push_back(key);
    return batch;
}

std::pair<std::size_t, std::size_t> TileBatch::locate(std::size_t system) const {
    // First axis fastest (SweepGrid), in the rectangle and in each tile.
    const std::size_t cells = std::size_t(cells_), width = std::size_t(rect_.nx) * cells;
    const std::size_t x = system % width, y = system / width;
    return {(y / cells) * std::size_t(rect_.nx) + x / cells, (y % cells) * cells + x % cells};
}

std::vector<std::pair<TileKey, std::shared_ptr<const jobs::ResultBlock>>>
TileBatch::split(const jobs::ResultBlock& block) const {
    std::vector<std::vector<std::size_t>> rows(rect_.tiles()), systems(rect_.tiles());
    for (std::size_t row = 0; row < block.systems.size(); ++row) {
        const auto [tile, system] = locate(block.systems[row]);
        rows[tile].push_back(row);
        systems[tile].push_back(system);
    }
    std::vector<std::pair<TileKey, std::shared_ptr<const jobs::ResultBlock>>> out;
    for (std::size_t tile = 0; tile < rows.size(); ++tile) {
        if (rows[tile].empty()) continue;
        auto part = std::make_shared<jobs::ResultBlock>();
        part->result = std::make_shared<const study::Result>(jobs::gather_rows(*block.result, rows[tile]));
        part->systems = std::move(systems[tile]); // ascending: the block's are, and a tile keeps their order
        part->pass = block.pass;
        part->pass_count = block.pass_count;
        part->stride = block.stride;
        part->provisional = block.provisional;
        out.emplace_back(
            keyAt(rect_.ix0 + std::int64_t(tile) % rect_.nx, rect_.iy0 + std::int64_t(tile) / rect_.nx),
            std::move(part));
    }
    return out;
}

std::vector<std::pair<TileKey, std::shared_ptr<const study::Result>>>
TileBatch::split(const study::Result& result) const {
    std::vector<std::vector<std::size_t>> rows(rect_.tiles(),
                                               std::vector<std::size_t>(std::size_t(cells_) * cells_));
    for (std::size_t system = 0; system < result.system_count; ++system) {
        const auto [tile, index] = locate(system);
        rows[tile][index] = system;
    }
    std::vector<std::pair<TileKey, std::shared_ptr<const study::Result>>> out;
    for (std::size_t tile = 0; tile < rows.size(); ++tile)
        out.emplace_back(
            keyAt(rect_.ix0 + std::int64_t(tile) % rect_.nx, rect_.iy0 + std::int64_t(tile) / rect_.nx),
            std::make_shared<const study::Result>(jobs::gather_rows(result, rows[tile])));
    return out;
}

} // namespace bif::tiles
