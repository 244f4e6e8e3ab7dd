#include "engine/jobs/pass_runner.h"

#include "engine/jobs/result_merge.h"

#include <algorithm>
#include <chrono>
#include <numeric>
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

class PassRunner {
  public:
    PassRunner(const study::ResolvedStudy& study, const PassPlan& plan, const PassRunSetup& setup)
        : study_(study), plan_(plan), setup_(setup), total_(study.system_count()) {}

    study::Result run() {
        whole_ = setup_.keep_whole ? study::allocate_result(study_) : summary_only();
        if (setup_.stand_in && !setup_.backend->ready(study_) && setup_.stand_in->supports(study_).available)
            preview_while_preparing();
        // A cancel between blocks shows in the next block's run, which returns at once.
        bool complete = !cancelled();
        for (std::size_t b = 0; complete && b < plan_.blocks.size(); ++b)
            complete = run_final_block(plan_.blocks[b]);
        whole_.info.complete = complete;
        return std::move(whole_);
    }

    study::Result run_in_order(std::size_t block_systems) {
        whole_ = setup_.keep_whole ? study::allocate_result(study_) : summary_only();
        const std::size_t step = allows_passes(study_) ? std::max<std::size_t>(block_systems, 1) : total_;
        bool complete = !cancelled();
        for (std::size_t begin = 0; complete && begin < total_; begin += step) {
            PlannedBlock block;
            block.systems.resize(std::min(step, total_ - begin));
            std::iota(block.systems.begin(), block.systems.end(), begin);
            complete = run_final_block(block);
        }
        whole_.info.complete = complete;
        return std::move(whole_);
    }

    study::Result run_ranges(const RangeSource& next) {
        whole_ = summary_only();
        bool complete = !cancelled();
        while (complete) {
            const std::optional<SystemRange> range = next();
            if (!range) break;
            PlannedBlock block;
            block.systems.resize(range->count);
            std::iota(block.systems.begin(), block.systems.end(), range->first);
            complete = run_final_block(block);
        }
        whole_.info.complete = complete;
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

    // The block's systems as a study of their own; the whole study when the block is all of it
    // (a continuation sweep cannot be cut: its grid points are not its systems).
    study::Result run_block(const PlannedBlock& block, study::Backend& backend, const std::atomic<bool>& stop,
                            bool provisional, unsigned threads) {
        const std::string label = pass_label(block, backend, provisional);
        const std::size_t base = done_;
        auto sink = [&](const study::Progress& p) {
            setup_.control->report_progress(provisional ? base : base + p.systems_done, total_,
                                            label + p.phase);
        };
        study::RunControl control(stop, sink, threads, setup_.control->memory_budget_bytes(),
                                  std::chrono::milliseconds(0));
        if (block.systems.size() == total_) return backend.run(study_, control);
        study::ResolvedStudy part = study_;
        part.grid = study_.grid.subset(block.systems);
        part.run_system_count = total_;
        return backend.run(part, control);
    }

    void publish(const PlannedBlock& block, study::Result r, bool provisional) {
        if (!setup_.on_block) return;
        auto published = std::make_shared<ResultBlock>();
        published->result = std::make_shared<const study::Result>(std::move(r));
        published->systems = block.systems;
        published->pass = block.pass;
        published->pass_count = plan_.pass_count;
        published->stride = block.stride;
        published->provisional = provisional;
        setup_.on_block(std::move(published));
    }

    bool run_final_block(const PlannedBlock& block) {
        if (block.preview) return run_preview(block);
        study::Result r = run_block(block, *setup_.backend, *setup_.cancel, false, setup_.control->threads());
        if (setup_.keep_whole) scatter_block(r, block.systems, whole_);
        merge_info(whole_.info, r.info);
        if (r.info.complete) {
            done_ += block.systems.size();
            publish(block, std::move(r), false);
            return true;
        }
        // Cancelled inside the block: its finished systems still make a (smaller) block.
        const std::vector<std::size_t> rows = finished_rows(r);
        done_ += rows.size();
        if (rows.empty()) return false;
        PlannedBlock finished{{}, block.pass, block.stride};
        for (std::size_t row : rows)
            finished.systems.push_back(block.systems[row]);
        publish(finished, gather_rows(r, rows), false);
        return false;
    }

    bool run_preview(const PlannedBlock& block) {
        study::Result r = run_block(block, *setup_.backend, *setup_.cancel, true, setup_.control->threads());
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
                study::Result r = run_block(block, *setup_.stand_in, stop, true, threads);
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
};

} // namespace

study::Result run_in_order(const study::ResolvedStudy& study, std::size_t block_systems,
                           const PassRunSetup& setup) {
    const PassPlan plan;
    return PassRunner(study, plan, setup).run_in_order(block_systems);
}

study::Result run_ranges(const study::ResolvedStudy& study, const RangeSource& next, const PassRunSetup& setup) {
    const PassPlan plan;
    return PassRunner(study, plan, setup).run_ranges(next);
}

study::Result run_in_passes(const study::ResolvedStudy& study, const PassPlan& plan,
                            const PassRunSetup& setup) {
    return PassRunner(study, plan, setup).run();
}

} // namespace bif::jobs
