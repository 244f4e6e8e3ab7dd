#include "ui/window/tiled_zoom.h"

#include "ui/window/result_tab.h"

#include <algorithm>

namespace bif::ui {

namespace {

plot::AxisRange view_axis(const study::SweepAxis& axis) {
    return {std::min(axis.from, axis.to), std::max(axis.from, axis.to), axis.scale == study::SweepScale::Log};
}

bool same_tiles(std::vector<tiles::TileKey> a, std::vector<tiles::TileKey> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

} // namespace

TiledZoom::TiledZoom(StudyRunner& runner, QObject* parent, int tile_cells)
    : QObject(parent), scheduler_(runner, cache_), tile_cells_(tile_cells) {
    connect(&scheduler_, &tiles::TileScheduler::tileBlock, this, &TiledZoom::onBlock);
    connect(&scheduler_, &tiles::TileScheduler::tileDone, this, &TiledZoom::onDone);
    connect(
        &scheduler_, &tiles::TileScheduler::tileFailed, this,
        [this](const tiles::TileKey&, const QString& why) { emit phase(tr("A tile failed: %1").arg(why)); });
}

bool TiledZoom::handles(const ResultTab& tab) {
    return tab.firstStudy() && tiles::TileGrid::supports(*tab.firstStudy());
}

void TiledZoom::show(ResultTab* tab, const study::Study& zoomed) {
    if (!tab || zoomed.sweep.size() != 2) return;
    if (tab != tab_ || !grid_) {
        if (tab_ && tab_ != tab && mosaic_ && !mosaic_->finished()) tab_->markStale(true);
        grid_.emplace(*tab->firstStudy(), tile_cells_);
        mosaic_.reset();
        tab_ = tab;
    }
    const plot::PlotRange range{view_axis(zoomed.sweep[0]), view_axis(zoomed.sweep[1])};
    const QSize pixels(zoomed.sweep[0].count, zoomed.sweep[1].count);
    const std::vector<tiles::TileKey> keys = grid_->keys(range, pixels);
    const auto study_of = [grid = *grid_](const tiles::TileRect& rect) { return grid.rectStudy(rect); };
    // A pan within the same tiles: the cover on screen stays; only the order of what is left changes.
    if (mosaic_ && same_tiles(keys, mosaic_->keys()) && tab->study() == mosaic_->cover()) {
        if (!mosaic_->finished()) scheduler_.request(keys, study_of);
        return;
    }
    mosaic_.emplace(*grid_, keys);
    from_cache_ = 0;
    tab->beginRun(mosaic_->cover());
    scheduler_.request(keys, study_of); // cached tiles arrive in here, through onDone
    report();
}

void TiledZoom::cancel() {
    scheduler_.cancel();
    if (tab_ && mosaic_ && !mosaic_->finished()) tab_->markStale(true);
    mosaic_.reset();
}

void TiledZoom::abandon(ResultTab* tab) {
    if (tab != tab_) return;
    scheduler_.cancel();
    mosaic_.reset();
}

void TiledZoom::onBlock(const tiles::TileKey& key, std::shared_ptr<const jobs::ResultBlock> block) {
    if (!tab_) return cancel(); // the tab was closed
    if (mosaic_ && mosaic_->holds(key)) tab_->addBlock(mosaic_->place(key, *block));
}

void TiledZoom::onDone(const tiles::TileKey& key, std::shared_ptr<const study::Result> result, bool cached) {
    if (!tab_) return cancel();
    if (!mosaic_ || !mosaic_->holds(key)) return;
    if (cached) {
        ++from_cache_;
        tab_->addBlock(mosaic_->placeWhole(key, result));
    }
    mosaic_->complete(key, *result);
    report();
    if (mosaic_->finished()) {
        tab_->endRun(jobs::JobState::Succeeded, mosaic_->result());
        emit tilesFinished(tab_);
    }
}

void TiledZoom::report() {
    if (!mosaic_) return;
    QString text = tr("Tiles: %1 of %2").arg(mosaic_->doneCount()).arg(mosaic_->keys().size());
    if (from_cache_ > 0) text += tr(" (%1 from the cache)").arg(from_cache_);
    emit phase(text);
}

} // namespace bif::ui
