#include "engine/jobs/pass_runner.h"

#include "engine/jobs/result_merge.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>

namespace bif::jobs {

namespace {

std::vector<std::size_t> finished_rows(const study::Result& r) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < r.system_count; ++i)
        if (r.status[i] != study::SystemStatus::NotRun) rows.push_back(i);
    return rows;
}

// BIF_STREAM_BLOCKS_AT_ONCE, where set, overrides the setup's choice (for measuring one against the
// other on a GPU server).
std::size_t blocks_at_once(int chosen) {
    const char* forced = std::getenv("BIF_STREAM_BLOCKS_AT_ONCE");
    const int n = forced && *forced ? std::atoi(forced) : chosen;
    return std::size_t(std::clamp(n, 1, 8));
}

class PassRunner {
  public:
    PassRunner(const study::ResolvedStudy& study, const PassPlan& plan, const PassRunSetup& setup)
        : study_(study), plan_(plan), setup_(setup), total_(study.system_count()) {}

    study::Result run() {
        whole_ = summary_only(); // its columns come with the first block in (keep)
        if (setup_.stand_in && !setup_.backend->ready(study_) && setup_.stand_in->supports(study_).available)
            preview_while_preparing();
        // A cancel between blocks shows in the next block's run, which returns at once.
        bool complete = !cancelled();
        for (std::size_t b = 0; complete && b < plan_.blocks.size(); ++b)
            complete = run_final_block(plan_.blocks[b]);
        allocate_whole();
        whole_.info.complete = complete;
        return std::move(whole_);
    }

    study::Result run_in_order(std::size_t block_systems) {
        whole_ = summary_only();
        allocate_whole();
        const std::size_t step = allows_passes(study_) ? std::max<std::size_t>(block_systems, 1) : total_;
        std::size_t begin = 0;
        const std::size_t at_once = setup_.keep_whole ? 1 : blocks_at_once(setup_.blocks_at_once);
        whole_.info.complete = run_consecutive(at_once, [&]() -> std::optional<PlannedBlock> {
            if (begin >= total_) return std::nullopt;
            const std::size_t count = std::min(step, total_ - begin);
            begin += count;
            return consecutive_block(begin - count, count);
        });
        return std::move(whole_);
    }

    study::Result run_ranges(const RangeSource& next) {
        whole_ = summary_only();
        // One block at a time: `next` may wait for a range that only comes once this process's
        // running block is handed back (a coordinator's window, or every block out), which a second
        // block, asked for while the first runs, would never let happen.
        whole_.info.complete = run_consecutive(1, [&]() -> std::optional<PlannedBlock> {
            const std::optional<SystemRange> range = next();
            if (!range) return std::nullopt;
            return consecutive_block(range->first, range->count);
        });
        return std::move(whole_);
    }

  private:
    study::Result summary_only() const {
        study::Result r;
        r.analysis = study_.study.analysis;
        r.system_count = total_;
        return r;
    }

    bool cancelled() const { return setup_.cancel->load(); }

    std::string pass_label(const PlannedBlock& block, const study::Backend& backend, bool provisional) const {
        const char* note = !provisional                        ? ": "
                           : &backend == setup_.stand_in.get() ? " (preview while the model compiles): "
                                                               : " (preview): ";
        return "pass " + std::to_string(block.pass + 1) + "/" + std::to_string(plan_.pass_count) + note;
    }

    static PlannedBlock consecutive_block(std::size_t first, std::size_t count) {
        PlannedBlock block;
        block.systems.resize(count);
        std::iota(block.systems.begin(), block.systems.end(), first);
        return block;
    }

    // Progress of a block as part of the whole run: systems of the blocks before it plus its own.
    study::ProgressSink block_sink(const PlannedBlock& block, const study::Backend& backend,
                                   bool provisional) {
        const std::string label = pass_label(block, backend, provisional);
        const std::size_t base = done_;
        return [this, label, base, provisional](const study::Progress& p) {
            setup_.control->report_progress(provisional ? base : base + p.systems_done, total_,
                                            label + p.phase);
        };
    }

    // The block's systems as a study of their own; the whole study when the block is all of it
    // (a continuation sweep cannot be cut: its grid points are not its systems). `consecutive`: the
    // block's systems follow each other (its grid is then a range, without a list of points).
    study::Result run_block(const PlannedBlock& block, study::Backend& backend, const std::atomic<bool>& stop,
                            unsigned threads, study::ProgressSink sink, bool consecutive = false) {
        study::RunControl control(stop, std::move(sink), threads, setup_.control->memory_budget_bytes(),
                                  std::chrono::milliseconds(0));
        if (block.systems.size() == total_) return backend.run(study_, control);
        study::ResolvedStudy part = study_;
        part.grid = consecutive && !block.systems.empty()
                        ? study_.grid.subset_range(block.systems.front(), block.systems.size())
                        : study_.grid.subset(block.systems);
        part.run_system_count = total_;
        return backend.run(part, control);
    }

    std::shared_ptr<const ResultBlock> published(PlannedBlock block, study::Result r,
                                                 bool provisional) const {
        auto b = std::make_shared<ResultBlock>();
        b->result = std::make_shared<const study::Result>(std::move(r));
        b->systems = std::move(block.systems);
        b->pass = block.pass;
        b->pass_count = plan_.pass_count;
        b->stride = block.stride;
        b->provisional = provisional;
        return b;
    }

    void publish(PlannedBlock block, study::Result r, bool provisional) {
        if (setup_.on_block) setup_.on_block(published(std::move(block), std::move(r), provisional));
    }

    // The whole result's columns, made when the first block is in and published: a 1024^2 map's
    // took 15 ms on the GPU server, which the first pixels need not wait for. What the run noted
    // before (a stand-in's preview) is kept.
    void allocate_whole() {
        if (!setup_.keep_whole || whole_allocated_) return;
        study::Result full = study::allocate_result(study_);
        full.info = std::move(whole_.info);
        whole_ = std::move(full);
        whole_allocated_ = true;
    }

    // A finished block's systems and notes into the whole result.
    void keep(const std::vector<std::size_t>& systems, const study::Result& r) {
        allocate_whole();
        if (setup_.keep_whole) scatter_block(r, systems, whole_);
        merge_info(whole_.info, r.info);
    }

    bool run_final_block(const PlannedBlock& block) {
        if (block.preview) return run_preview(block);
        study::Result r = run_block(block, *setup_.backend, *setup_.cancel, setup_.control->threads(),
                                    block_sink(block, *setup_.backend, false));
        return finish_final_block(PlannedBlock(block), std::move(r));
    }

    // Merges and publishes a final block's result; false when the block was cancelled.
    bool finish_final_block(PlannedBlock block, study::Result r) {
        if (r.info.complete) {
            done_ += block.systems.size();
            // published before it is kept: the first pixels wait for no bookkeeping of the whole
            const std::shared_ptr<const ResultBlock> b = published(std::move(block), std::move(r), false);
            if (setup_.on_block) setup_.on_block(b);
            keep(b->systems, *b->result);
            return true;
        }
        keep(block.systems, r);
        // Cancelled inside the block: its finished systems still make a (smaller) block.
        const std::vector<std::size_t> rows = finished_rows(r);
        done_ += rows.size();
        if (rows.empty()) return false;
        PlannedBlock finished{{}, block.pass, block.stride};
        for (std::size_t row : rows)
            finished.systems.push_back(block.systems[row]);
        publish(std::move(finished), gather_rows(r, rows), false);
        return false;
    }

    // A block of a streamed run on its own thread. `result` is declared last so that it goes first:
    // its destructor waits for the thread, which reads the block.
    struct RunningBlock {
        PlannedBlock block;
        std::size_t reported = 0; // the block's own systems_done, under progress_mutex_
        std::future<study::Result> result;
    };

    // Runs the blocks `next` gives as final blocks, blocks_at_once at a time, and publishes them in
    // the order given; stops at the first cancelled one (the blocks after it are run to their end,
    // cancelled too, and dropped). True when every block completed.
    bool run_consecutive(std::size_t at_once, const std::function<std::optional<PlannedBlock>()>& next) {
        bool complete = !cancelled();
        if (at_once == 1) {
            // A cancel between blocks shows in the next block's run, which returns at once.
            for (std::optional<PlannedBlock> block; complete && (block = next());) {
                study::Result r =
                    run_block(*block, *setup_.backend, *setup_.cancel, setup_.control->threads(),
                              block_sink(*block, *setup_.backend, false), true);
                complete = finish_final_block(std::move(*block), std::move(r));
            }
            return complete;
        }
        std::deque<std::unique_ptr<RunningBlock>> running;
        bool more = true, first = true;
        while (complete) {
            // the first block runs alone: it may compile the model, which a second would compile again
            while (more && running.size() < (first ? 1 : at_once)) {
                std::optional<PlannedBlock> block = next();
                if (!block) {
                    more = false;
                    break;
                }
                running.push_back(std::make_unique<RunningBlock>());
                RunningBlock* job = running.back().get();
                job->block = std::move(*block);
                job->result = std::async(std::launch::async, [this, job] {
                    return run_block(job->block, *setup_.backend, *setup_.cancel, setup_.control->threads(),
                                     running_sink(*job), true);
                });
            }
            if (running.empty()) break;
            const std::unique_ptr<RunningBlock> job = std::move(running.front());
            running.pop_front();
            study::Result r = job->result.get();
            {
                std::lock_guard lock(progress_mutex_);
                running_done_ -= job->reported;
                finished_done_ += job->block.systems.size();
            }
            complete = finish_final_block(std::move(job->block), std::move(r));
            first = false;
        }
        return complete;
    }

    // Progress of a block running beside others: the finished blocks' systems and every running
    // block's own.
    study::ProgressSink running_sink(RunningBlock& job) {
        const std::string label = pass_label(job.block, *setup_.backend, false);
        return [this, &job, label](const study::Progress& p) {
            std::size_t done = 0;
            {
                std::lock_guard lock(progress_mutex_);
                const std::size_t now = std::max(job.reported, p.systems_done);
                running_done_ += now - job.reported;
                job.reported = now;
                done = finished_done_ + running_done_;
            }
            setup_.control->report_progress(done, total_, label + p.phase);
        };
    }

    bool run_preview(const PlannedBlock& block) {
        study::Result r = run_block(block, *setup_.backend, *setup_.cancel, setup_.control->threads(),
                                    block_sink(block, *setup_.backend, true));
        if (!r.info.complete) return false;
        publish(block, std::move(r), true);
        return true;
    }

    // The stand-in computes blocks while the selected backend compiles on a second thread; a watcher
    // stops the stand-in's block as soon as the compile ends or the job is cancelled.
    void preview_while_preparing() {
        const auto start = std::chrono::steady_clock::now();
        std::atomic<bool> prepared{false}, stop{false}, previews_over{false};
        study::RunControl prepare_control(*setup_.cancel, {}, 1, setup_.control->memory_budget_bytes());
        std::thread preparer([&] {
            try {
                setup_.backend->prepare(study_, prepare_control);
            } catch (const std::exception&) {
                // the final passes meet the same failure and report it
            }
            prepared.store(true);
        });
        std::thread watcher([&] {
            while (!prepared.load() && !cancelled() && !previews_over.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            stop.store(true);
        });
        // Leave a core to the compiler.
        const unsigned threads = std::max(1u, setup_.control->threads() - 1);
        bool previewed = false;
        for (const auto& block : plan_.blocks) {
            if (stop.load()) break;
            try {
                study::Result r = run_block(block, *setup_.stand_in, stop, threads,
                                            block_sink(block, *setup_.stand_in, true));
                if (!r.info.complete) break;
                publish(block, std::move(r), true);
                previewed = true;
            } catch (const std::exception&) {
                break; // the stand-in cannot do it after all; the selected backend will
            }
        }
        previews_over.store(true);
        watcher.join();
        preparer.join();
        whole_.info.compile_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (previewed)
            whole_.info.notes.push_back("the first blocks were previewed by a stand-in backend while the "
                                        "model compiled; every value here comes from the compiled model");
    }

    const study::ResolvedStudy& study_;
    const PassPlan& plan_;
    const PassRunSetup& setup_;
    std::size_t total_;
    std::size_t done_ = 0; // systems the selected backend finished
    study::Result whole_;
    bool whole_allocated_ = false;
    std::mutex progress_mutex_; // streamed blocks running at once report through it
    std::size_t finished_done_ = 0, running_done_ = 0;
};

} // namespace

study::Result run_in_order(const study::ResolvedStudy& study, std::size_t block_systems,
                           const PassRunSetup& setup) {
    const PassPlan plan;
    return PassRunner(study, plan, setup).run_in_order(block_systems);
}

study::Result run_ranges(const study::ResolvedStudy& study, const RangeSource& next,
                         const PassRunSetup& setup) {
    const PassPlan plan;
    return PassRunner(study, plan, setup).run_ranges(next);
}

study::Result run_in_passes(const study::ResolvedStudy& study, const PassPlan& plan,
                            const PassRunSetup& setup) {
    return PassRunner(study, plan, setup).run();
}

} // namespace bif::jobs
