// Zooms and pans of a parameter map, computed as tiles (ui/tiles): the view's tiles that are cached
// are on screen at once, the others run centre first, each coarse pass first, and a tile the view
// left is cancelled. One tab at a time, like RunController: tiling another tab drops this one's
// queue. Diagrams (one sweep axis) and basins (attractor labels are numbered per run, so tiles of
// separate runs would not agree) are not tiled: they keep the whole-view recompute.
#pragma once

#include "engine/study/study.h"
#include "ui/tiles/tile_cache.h"
#include "ui/tiles/tile_mosaic.h"
#include "ui/tiles/tile_scheduler.h"

#include <QObject>
#include <QPointer>
#include <QSize>
#include <memory>
#include <optional>

namespace bif::ui {

class ResultTab;
class StudyRunner;

class TiledZoom : public QObject {
    Q_OBJECT
  public:
    explicit TiledZoom(StudyRunner& runner, QObject* parent = nullptr, int tile_cells = 256);

    // Whether zooms of this tab are tiled (a parameter map over two axes).
    static bool handles(const ResultTab& tab);
    // The tab's view moved: `zoomed` is the study restricted to the view at its pixel resolution
    // (plot::zoomed_study). Shows cached tiles now and schedules the rest.
    void show(ResultTab* tab, const study::Study& zoomed);
    void cancel();
    // The tab went back to a result it had shown: its tiles are no longer wanted (nothing greyed).
    void abandon(ResultTab* tab);

    tiles::TileCache& cache() { return cache_; }
    tiles::TileScheduler& scheduler() { return scheduler_; }
    const tiles::TileMosaic* mosaic() const { return mosaic_ ? &*mosaic_ : nullptr; }

  signals:
    // "Tiles: 3 of 12 (5 from the cache)", for the status bar.
    void phase(const QString& text);
    void tilesFinished(bif::ui::ResultTab* tab);

  private:
    void onBlock(const tiles::TileKey& key, std::shared_ptr<const jobs::ResultBlock> block);
    void onDone(const tiles::TileKey& key, std::shared_ptr<const study::Result> result, bool cached);
    void report();

    tiles::TileCache cache_;
    tiles::TileScheduler scheduler_;
    int tile_cells_;
    QPointer<ResultTab> tab_;
    std::optional<tiles::TileGrid> grid_;
    std::optional<tiles::TileMosaic> mosaic_;
    std::size_t from_cache_ = 0;
};

} // namespace bif::ui
