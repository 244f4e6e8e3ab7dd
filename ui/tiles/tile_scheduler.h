// Runs the tiles a view wants, one job at a time through the shared StudyRunner (its worker thread
// and queued signals), starting from the tile nearest the view's centre. A job runs a batch: the
// rectangle of queued tiles grown around that tile (TileBatch; up to batch_systems systems), as one
// progressive job, so it arrives coarse pass first all over the rectangle and each tile gets its own
// part of every block. Cached tiles are delivered at once without a job. A batch in flight of whose
// tiles the view no longer wants half is cancelled; tiles still queued are simply dropped.
//
// The runner serves whole-study runs too (RunController), and its latest request wins: the
// scheduler submits only while no other run is in flight, and a tile cancelled by someone else's
// run goes back to the front of the queue.
#pragma once

#include "engine/jobs/job.h"
#include "engine/jobs/result_block.h"
#include "ui/tiles/tile_batch.h"
#include "ui/tiles/tile_cache.h"
#include "ui/tiles/tile_grid.h"

#include <QObject>
#include <deque>
#include <functional>
#include <memory>
#include <optional>

namespace bif::ui {
class StudyRunner;
}

namespace bif::tiles {

class TileScheduler : public QObject {
    Q_OBJECT
  public:
    using StudyOf = std::function<std::shared_ptr<const study::ResolvedStudy>(const TileRect&)>;
    // Systems per batch at most: a few times a GPU's resident threads, so that a view of 1024 x 1024
    // points (up to 25 tiles of 256 x 256) runs as one or two jobs, and a batch cancelled by a pan
    // loses a fraction of a second.
    static constexpr std::size_t batch_systems = std::size_t(1) << 21;

    TileScheduler(ui::StudyRunner& runner, TileCache& cache, QObject* parent = nullptr);

    // The view now wants these tiles, in this order; `study_of` gives the sub-study of a rectangle
    // of them (TileGrid::rectStudy). Cached ones are delivered (tileDone) before this returns.
    void request(const std::vector<TileKey>& wanted, StudyOf study_of);
    // Drops the queue and cancels the batch in flight.
    void cancel();

    bool idle() const { return !in_flight_ && queue_.empty(); }
    std::size_t queued() const { return queue_.size(); }
    // Jobs submitted so far (a test hook: a view served from the cache submits none).
    std::size_t submitted() const { return submitted_; }
    // The runner's id of the batch in flight, and its tiles.
    std::optional<quint64> runInFlight() const;
    std::vector<TileKey> tilesInFlight() const;

  signals:
    void tileBlock(const bif::tiles::TileKey& key, std::shared_ptr<const bif::jobs::ResultBlock> block);
    // `cached`: served from the cache (no blocks came before); else its blocks came through tileBlock.
    void tileDone(const bif::tiles::TileKey& key, std::shared_ptr<const bif::study::Result> result,
                  bool cached);
    void tileFailed(const bif::tiles::TileKey& key, const QString& why);

  private:
    struct Flight {
        TileBatch batch;
        quint64 run = 0;
    };
    void startNext();
    void onBlock(quint64 run, std::shared_ptr<const jobs::ResultBlock> block);
    void onFinished(quint64 run, jobs::JobState state, std::shared_ptr<const study::Result> result,
                    const QString& failure);

    ui::StudyRunner& runner_;
    TileCache& cache_;
    StudyOf study_of_;
    std::deque<TileKey> queue_;
    std::vector<TileKey> wanted_; // the latest request's tiles
    std::optional<Flight> in_flight_;
    std::size_t submitted_ = 0;
};

} // namespace bif::tiles
