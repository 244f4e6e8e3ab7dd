// Rank 0 of a distributed run: the hand-out loop on the main thread (every MPI call of this rank),
// and a local job on a worker thread that takes blocks from the same book.
#include "block_ledger.h"
#include "distributed_run.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/jobs/pass_plan.h"
#include "engine/jobs/result_bytes.h"
#include "engine/jobs/result_merge.h"
#include "mpi_channel.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace bif::cli::mpi {

namespace {

constexpr int local_rank = 0;

std::size_t default_block_systems(std::size_t total, int ranks) {
    const std::size_t blocks = 16 * static_cast<std::size_t>(std::max(ranks, 1));
    return std::clamp<std::size_t>((total + blocks - 1) / blocks, 1, 65536);
}

// What the local job's thread and the hand-out loop share.
struct LocalSlot {
    std::mutex mutex;
    std::condition_variable changed;
    bool asking = false;
    std::optional<jobs::SystemRange> assignment;
    bool closing = false;
    std::deque<std::shared_ptr<const jobs::ResultBlock>> finished;
};

class Coordinator {
  public:
    Coordinator(Session& session, std::shared_ptr<const study::ResolvedStudy> study,
                const DistributedOptions& options, const OrderedBlockSink& sink)
        : session_(session), study_(std::move(study)), options_(options), sink_(sink),
          total_(study_->system_count()),
          ledger_(total_,
                  !jobs::allows_passes(*study_) ? total_
                  : options.block_systems != 0  ? options.block_systems
                                                : default_block_systems(total_, session.size()),
                  4 * static_cast<std::size_t>(session.size()) + 4) {}

    DistributedOutcome run(const std::function<bool()>& stop_requested) {
        start_local_job();
        const auto start = BlockLedger::Clock::now();
        try {
            while (!ledger_.all_written() && outcome_.failure.empty()) {
                if (stop_requested()) {
                    outcome_.interrupted = true;
                    break;
                }
                // each of the three runs every round, whatever the others did
                const bool served = serve_one_message();
                const bool took = take_local_blocks();
                const bool wrote = write_ready_blocks(start);
                const bool busy = served || took || wrote;
                hand_out_blocks();
                note_unresponsive_ranks();
                if (!busy) std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        } catch (const std::exception& e) {
            outcome_.failure = e.what();
        }
        outcome_.succeeded = ledger_.all_written() && outcome_.failure.empty() && !outcome_.interrupted;
        stop_local_job();
        if (outcome_.succeeded) stop_workers();
        outcome_.must_abort = !outcome_.succeeded || !ledger_.unresponsive().empty() || still_busy_;
        outcome_.info.complete = outcome_.succeeded;
        outcome_.is_coordinator = true;
        outcome_.messages.insert(outcome_.messages.begin(),
                                 std::to_string(ledger_.block_count()) + " blocks over " +
                                     std::to_string(session_.size()) + " MPI ranks");
        return std::move(outcome_);
    }

  private:
    void start_local_job() {
        jobs::JobOptions o;
        o.backend = options_.backend;
        o.threads = options_.threads;
        o.keep_result = false;
        o.next_range = [this]() -> std::optional<jobs::SystemRange> {
            std::unique_lock lock(local_.mutex);
            local_.asking = true;
            local_.changed.wait(lock, [&] { return local_.assignment || local_.closing; });
            local_.asking = false;
            return std::exchange(local_.assignment, std::nullopt);
        };
        o.on_block = [this](std::shared_ptr<const jobs::ResultBlock> block) {
            std::lock_guard lock(local_.mutex);
            local_.finished.push_back(std::move(block));
        };
        local_job_ = jobs::submit(jobs::installed_backends(), study_, o);
    }

    void stop_local_job() {
        {
            std::lock_guard lock(local_.mutex);
            local_.closing = true;
            local_.assignment.reset();
        }
        local_.changed.notify_all();
        if (!outcome_.succeeded) local_job_->cancel();
        local_job_->wait();
        if (const auto r = local_job_->result()) {
            // The backend selection's notes, which a one-process run puts first.
            std::vector<std::string> notes;
            for (const auto& note : r->info.notes)
                if (std::find(outcome_.info.notes.begin(), outcome_.info.notes.end(), note) ==
                    outcome_.info.notes.end())
                    notes.push_back(note);
            outcome_.info.notes.insert(outcome_.info.notes.begin(), notes.begin(), notes.end());
            if (outcome_.info.backend.empty()) outcome_.info.backend = r->info.backend;
        }
    }

    void fail(int rank, const std::string& why) {
        if (outcome_.failure.empty()) outcome_.failure = "rank " + std::to_string(rank) + ": " + why;
    }

    void receive_block(int rank, const std::vector<std::byte>& bytes) {
        auto block = std::make_shared<jobs::ResultBlock>(jobs::decode_block(bytes));
        const auto index =
            block->systems.empty() ? std::nullopt : ledger_.block_starting_at(block->systems.front());
        if (!index || ledger_.range(*index).count != block->systems.size())
            return fail(rank, "sent a block that was not handed out");
        if (!block->result->info.complete) return fail(rank, "sent an unfinished block");
        ledger_.receive(rank, *index, std::move(block));
    }

    // One message from a worker, if one is waiting.
    bool serve_one_message() {
        int waiting = 0;
        MPI_Status probed;
        check(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, &probed), "MPI_Iprobe",
              MPI_ANY_SOURCE);
        if (!waiting) return false;
        const int rank = probed.MPI_SOURCE;
        const std::vector<std::byte> bytes = receive_probed(probed);
        switch (static_cast<Tag>(probed.MPI_TAG)) {
        case Tag::Block:
            receive_block(rank, bytes);
            [[fallthrough]];
        case Tag::Ready:
            asking_.push_back(rank);
            break;
        case Tag::Failed:
            fail(rank, std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
            break;
        default:
            fail(rank, "sent an unknown message");
        }
        return true;
    }

    bool take_local_blocks() {
        std::deque<std::shared_ptr<const jobs::ResultBlock>> finished;
        {
            std::lock_guard lock(local_.mutex);
            finished.swap(local_.finished);
        }
        for (auto& block : finished) {
            const std::size_t index = *ledger_.block_starting_at(block->systems.front());
            ledger_.receive(local_rank, index, std::move(block));
        }
        if (local_job_->state() == jobs::JobState::Failed) fail(local_rank, local_job_->failure());
        return !finished.empty();
    }

    bool write_ready_blocks(BlockLedger::Clock::time_point start) {
        const auto ready = ledger_.take_in_order();
        for (const auto& block : ready) {
            jobs::merge_info(outcome_.info, block->result->info);
            written_systems_ += block->systems.size();
            try {
                sink_(block);
            } catch (const std::exception& e) {
                outcome_.failure = e.what();
                return true;
            }
        }
        if (!ready.empty() && options_.on_progress) {
            study::Progress p;
            p.systems_done = written_systems_;
            p.systems_total = total_;
            p.fraction = total_ == 0 ? 1.0 : double(written_systems_) / double(total_);
            p.phase = "on " + std::to_string(session_.size()) + " ranks";
            p.elapsed_seconds = std::chrono::duration<double>(BlockLedger::Clock::now() - start).count();
            options_.on_progress(p);
        }
        return !ready.empty();
    }

    void hand_out_blocks() {
        const auto now = BlockLedger::Clock::now();
        for (auto it = asking_.begin(); it != asking_.end();) {
            const auto block = ledger_.hand_out(*it, now);
            if (!block) return;
            const jobs::SystemRange r = ledger_.range(*block);
            send_assignment(*it, r.first, r.count);
            it = asking_.erase(it);
        }
        std::lock_guard lock(local_.mutex);
        if (!local_.asking || local_.assignment || local_.closing) return;
        if (const auto block = ledger_.hand_out(local_rank, now)) {
            local_.assignment = ledger_.range(*block);
            local_.changed.notify_all();
        }
    }

    void note_unresponsive_ranks() {
        for (int rank : ledger_.expire(BlockLedger::Clock::now(), options_.block_timeout))
            if (rank != local_rank)
                outcome_.messages.push_back("rank " + std::to_string(rank) + " did not answer within " +
                                            std::to_string(options_.block_timeout.count() / 1000.0) +
                                            " s; its block was handed to another rank");
    }

    // Tells every worker to stop once it asks again; a rank that does not ask within the block
    // timeout is left to the abort.
    void stop_workers() {
        std::vector<bool> stopped(static_cast<std::size_t>(session_.size()), false);
        stopped[local_rank] = true;
        for (int rank : ledger_.unresponsive())
            stopped[static_cast<std::size_t>(rank)] = true;
        const auto deadline = BlockLedger::Clock::now() + options_.block_timeout;
        auto all_stopped = [&] {
            return std::all_of(stopped.begin(), stopped.end(), [](bool s) { return s; });
        };
        try {
            while (!all_stopped() && BlockLedger::Clock::now() < deadline) {
                for (int rank : asking_) {
                    send_assignment(rank, 0, 0);
                    stopped[static_cast<std::size_t>(rank)] = true;
                }
                asking_.clear();
                if (!serve_one_message()) std::this_thread::sleep_for(std::chrono::microseconds(200));
            }
        } catch (const std::exception& e) {
            outcome_.messages.push_back(std::string("while stopping the workers: ") + e.what());
        }
        for (int rank = 0; rank < session_.size(); ++rank)
            if (!stopped[static_cast<std::size_t>(rank)] && !ledger_.unresponsive().contains(rank)) {
                outcome_.messages.push_back("rank " + std::to_string(rank) +
                                            " did not ask for more work in time");
                still_busy_ = true;
            }
        if (still_busy_ || !ledger_.unresponsive().empty())
            for (int rank : ledger_.unresponsive())
                outcome_.messages.push_back("rank " + std::to_string(rank) +
                                            " never answered again; the job is aborted to end it");
    }

    Session& session_;
    std::shared_ptr<const study::ResolvedStudy> study_;
    const DistributedOptions& options_;
    const OrderedBlockSink& sink_;
    std::size_t total_;
    BlockLedger ledger_;
    LocalSlot local_;
    std::shared_ptr<jobs::Job> local_job_;
    std::vector<int> asking_; // workers waiting for a range
    std::size_t written_systems_ = 0;
    bool still_busy_ = false;
    DistributedOutcome outcome_;
};

} // namespace

DistributedOutcome coordinate(Session& session, std::shared_ptr<const study::ResolvedStudy> study,
                              const DistributedOptions& options, const OrderedBlockSink& sink,
                              const std::function<bool()>& stop_requested) {
    return Coordinator(session, std::move(study), options, sink).run(stop_requested);
}

} // namespace bif::cli::mpi
