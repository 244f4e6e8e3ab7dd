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
    queue_.clear();
    const auto is_wanted = [&](const TileKey& k) {
        return std::find(wanted.begin(), wanted.end(), k) != wanted.end();
    };
    if (in_flight_ && !is_wanted(in_flight_->key)) {
        runner_.cancel(); // its finished() arrives later and is ignored: in_flight_ is cleared now
        in_flight_.reset();
    }
    for (const TileKey& key : wanted) {
        if (in_flight_ && key == in_flight_->key) continue;
        if (auto cached = cache_.find(key))
            emit tileDone(key, std::move(cached), true);
        else
            queue_.push_back(key);
    }
    startNext();
}

void TileScheduler::cancel() {
    queue_.clear();
    if (!in_flight_) return;
    runner_.cancel();
    in_flight_.reset();
}

std::optional<quint64> TileScheduler::runInFlight() const {
    return in_flight_ ? std::optional<quint64>(in_flight_->run) : std::nullopt;
}

std::optional<TileKey> TileScheduler::tileInFlight() const {
    return in_flight_ ? std::optional<TileKey>(in_flight_->key) : std::nullopt;
}

void TileScheduler::startNext() {
    // Another client's run in flight: wait for its finished() (the latest request would cancel it).
    if (in_flight_ || queue_.empty() || runner_.busy()) return;
    const TileKey key = queue_.front();
    queue_.pop_front();
    ui::RunRequest request;
    request.progressive = true;
    in_flight_ = Flight{key, runner_.run(study_of_(key), request)};
    ++submitted_;
}

void TileScheduler::onBlock(quint64 run, std::shared_ptr<const jobs::ResultBlock> block) {
    if (in_flight_ && run == in_flight_->run) emit tileBlock(in_flight_->key, std::move(block));
}

void TileScheduler::onFinished(quint64 run, jobs::JobState state, std::shared_ptr<const study::Result> result,
                               const QString& failure) {
    if (in_flight_ && run == in_flight_->run) {
        const TileKey key = in_flight_->key;
        in_flight_.reset();
        if (state == jobs::JobState::Succeeded && result) {
            cache_.insert(key, result);
            emit tileDone(key, std::move(result), false);
        } else if (state == jobs::JobState::Cancelled) {
            queue_.push_front(key); // another client's run took the runner: this tile is still wanted
        } else {
            emit tileFailed(key, failure);
        }
    }
    startNext();
}

} // namespace bif::tiles
