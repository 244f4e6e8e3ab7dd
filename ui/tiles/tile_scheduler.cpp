#include "ui/tiles/tile_scheduler.h"

#include "ui/run/study_runner.h"

#include <algorithm>

namespace bif::tiles {

TileScheduler::TileScheduler(ui::StudyRunner& runner, TileCache& cache, QObject* parent)
    : QObject(parent), runner_(runner), cache_(cache) {
    connect(&runner_, &ui::StudyRunner::blockReady, this, &TileScheduler::onBlock);
    connect(&runner_, &ui::StudyRunner::finished, this, &TileScheduler::onFinished);
}

void TileScheduler::request(const std::vector<TileKey>& wanted, StudyOf study_of) {
    study_of_ = std::move(study_of);
    wanted_ = wanted;
    queue_.clear();
    const auto is_wanted = [&](const TileKey& k) {
        return std::find(wanted.begin(), wanted.end(), k) != wanted.end();
    };
    if (in_flight_) {
        const auto& flying = in_flight_->batch.keys();
        const auto still = std::size_t(std::count_if(flying.begin(), flying.end(), is_wanted));
        if (2 * still < flying.size()) {
            runner_.cancel(); // its finished() arrives later and is ignored: in_flight_ is cleared now
            in_flight_.reset();
        }
    }
    for (const TileKey& key : wanted) {
        if (in_flight_ && in_flight_->batch.holds(key)) continue;
        if (auto cached = cache_.find(key))
            emit tileDone(key, std::move(cached), true);
        else
            queue_.push_back(key);
    }
    startNext();
}

void TileScheduler::cancel() {
    queue_.clear();
    wanted_.clear();
    if (!in_flight_) return;
    runner_.cancel();
    in_flight_.reset();
}

std::optional<quint64> TileScheduler::runInFlight() const {
    return in_flight_ ? std::optional<quint64>(in_flight_->run) : std::nullopt;
}

std::vector<TileKey> TileScheduler::tilesInFlight() const {
    return in_flight_ ? in_flight_->batch.keys() : std::vector<TileKey>{};
}

void TileScheduler::startNext() {
    // Another client's run in flight: wait for its finished() (the latest request would cancel it).
    if (in_flight_ || queue_.empty() || runner_.busy()) return;
    const TileKey& seed = queue_.front();
    const std::size_t per_tile = std::size_t(seed.cells) * std::size_t(seed.cells);
    TileBatch batch = TileBatch::grow(seed, queue_, std::max<std::size_t>(1, batch_systems / per_tile));
    std::erase_if(queue_, [&](const TileKey& key) { return batch.holds(key); });
    ui::RunRequest request;
    request.progressive = true;
    const quint64 run = runner_.run(study_of_(batch.rect()), request);
    in_flight_ = Flight{std::move(batch), run};
    ++submitted_;
}

void TileScheduler::onBlock(quint64 run, std::shared_ptr<const jobs::ResultBlock> block) {
    if (!in_flight_ || run != in_flight_->run) return;
    for (auto& [key, part] : in_flight_->batch.split(*block))
        emit tileBlock(key, std::move(part));
}

void TileScheduler::onFinished(quint64 run, jobs::JobState state, std::shared_ptr<const study::Result> result,
                               const QString& failure) {
    if (in_flight_ && run == in_flight_->run) {
        const TileBatch batch = std::move(in_flight_->batch);
        in_flight_.reset();
        if (state == jobs::JobState::Succeeded && result) {
            // Every tile goes into the cache, a tile the view has left too (a pan back finds it).
            for (auto& [key, tile] : batch.split(*result)) {
                cache_.insert(key, tile);
                emit tileDone(key, std::move(tile), false);
            }
        } else if (state == jobs::JobState::Cancelled) {
            // Another client's run took the runner: the tiles still wanted go back to the front.
            const auto& keys = batch.keys();
            for (auto k = keys.rbegin(); k != keys.rend(); ++k)
                if (std::find(wanted_.begin(), wanted_.end(), *k) != wanted_.end()) queue_.push_front(*k);
        } else {
            for (const TileKey& key : batch.keys())
                emit tileFailed(key, failure);
        }
    }
    startNext();
}

} // namespace bif::tiles
