#include "engine/jobs/backend_race.h"

#include "engine/jobs/seconds_text.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <optional>
#include <thread>

namespace bif::jobs {

BackendRace::BackendRace(std::shared_ptr<study::Backend> predicted, std::shared_ptr<study::Backend> rival,
                         OnWinner on_winner)
    : predicted_(std::move(predicted)), rival_(std::move(rival)), on_winner_(std::move(on_winner)) {}

std::string BackendRace::name() const {
    if (const auto w = winner()) return w->name();
    return predicted_->name() + "+" + rival_->name();
}

study::Availability BackendRace::supports(const study::ResolvedStudy& study) const {
    return predicted_->supports(study);
}

bool BackendRace::ready(const study::ResolvedStudy& study) const {
    return predicted_->ready(study) && rival_->ready(study);
}

void BackendRace::prepare(const study::ResolvedStudy& study, study::RunControl& control) {
    predicted_->prepare(study, control);
    rival_->prepare(study, control);
}

std::size_t BackendRace::parallel_systems(const study::ResolvedStudy& study) const {
    if (const auto w = winner()) return w->parallel_systems(study);
    return std::max(predicted_->parallel_systems(study), rival_->parallel_systems(study));
}

std::shared_ptr<study::Backend> BackendRace::winner() const {
    std::lock_guard lock(mutex_);
    return winner_;
}

study::Result BackendRace::run(const study::ResolvedStudy& study, study::RunControl& control) {
    if (const auto w = winner()) return w->run(study, control);
    return race(study, control);
}

namespace {

struct Side {
    std::shared_ptr<study::Backend> backend;
    std::atomic<bool> cancel{false};
    std::optional<study::Result> result;
    std::string failure;
    bool done = false;
    double seconds = 0;
};

} // namespace

study::Result BackendRace::race(const study::ResolvedStudy& study, study::RunControl& control) {
    Side sides[2];
    sides[0].backend = predicted_;
    sides[1].backend = rival_;
    std::mutex mutex;
    std::condition_variable changed;
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const unsigned threads = control.threads() != 0 ? control.threads() : hardware;
    const auto start = std::chrono::steady_clock::now();
    std::thread runners[2];
    for (int i = 0; i < 2; ++i) {
        runners[i] = std::thread([&, i] {
            Side& side = sides[i];
            // a CPU shares the machine with the GPU side's host thread
            const unsigned own =
                side.backend->parallel_systems(study) == 0 ? std::max(1u, threads - 1) : threads;
            study::RunControl own_control(
                side.cancel,
                [&](const study::Progress& p) {
                    control.report_progress(p.systems_done, p.systems_total, p.phase);
                },
                own, control.memory_budget_bytes() / 2);
            std::optional<study::Result> result;
            std::string failure;
            try {
                result = side.backend->run(study, own_control);
            } catch (const std::exception& e) {
                failure = e.what();
            }
            std::lock_guard lock(mutex);
            side.result = std::move(result);
            side.failure = std::move(failure);
            side.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            side.done = true;
            changed.notify_all();
        });
    }
    int won = -1;
    {
        std::unique_lock lock(mutex);
        const auto finished = [&](const Side& s) { return s.done && s.result && s.result->info.complete; };
        for (;;) {
            for (int i = 0; i < 2 && won < 0; ++i)
                if (finished(sides[i])) won = i;
            if (won >= 0 || (sides[0].done && sides[1].done)) break;
            // the job's cancel reaches both sides
            if (control.cancelled()) sides[0].cancel = sides[1].cancel = true;
            changed.wait_for(lock, std::chrono::milliseconds(5));
        }
        for (Side& s : sides)
            s.cancel = true; // the loser stops; the winner is done already
    }
    for (std::thread& t : runners)
        t.join();
    if (won < 0) {
        // no complete result: a cancel (the predicted side's partial result), or both failed
        for (Side& s : sides)
            if (s.result) return std::move(*s.result);
        throw study::BackendError(sides[0].failure);
    }
    Side& winner = sides[won];
    const Side& loser = sides[1 - won];
    {
        std::lock_guard lock(mutex_);
        winner_ = winner.backend;
    }
    if (on_winner_) on_winner_(winner.backend->name());
    study::Result r = std::move(*winner.result);
    r.info.notes.insert(r.info.notes.begin(),
                        "auto: " + winner.backend->name() + " and " + loser.backend->name() + " raced; " +
                            winner.backend->name() + " finished first (" + seconds_text(winner.seconds) +
                            "), " + loser.backend->name() +
                            (loser.failure.empty()
                                 ? " was stopped"
                                 : " failed: " + loser.failure.substr(0, loser.failure.find('\n'))));
    return r;
}

} // namespace bif::jobs
