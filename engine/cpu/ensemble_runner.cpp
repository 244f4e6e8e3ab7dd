#include "engine/cpu/ensemble_runner.h"

#include "bif/study/entry.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace bif::cpu {

namespace {

// Slices are a fixed number of attempted steps (ensemble::slice_steps, the GPU's too), never sized
// by the clock: the same study gives the same numbers whatever the thread count or the load. The
// evaluator, ~20x slower, takes shorter ones so that a cancel still lands within 100 ms.
constexpr long long evaluator_slice_steps = 256;

void run_on_threads(unsigned threads, const std::function<void()>& work) {
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace

EnsembleRunner::EnsembleRunner(const StudyProgram& program, const study::ResolvedStudy& study,
                               const ensemble::SpecStorage& spec, study::RunControl& control)
    : program_(program), study_(study), spec_(spec), control_(control), total_(study.system_count()) {}

void EnsembleRunner::system_finished() {
    const std::size_t done = done_.fetch_add(1) + 1;
    control_.report_progress(done, total_, "integrating");
}

bool EnsembleRunner::run_system(const ensemble::View<double>& view, std::size_t index) const {
    const long long slice =
        program_.code_path() == study::CodePath::Evaluator ? evaluator_slice_steps : ensemble::slice_steps;
    for (;;) {
        if (control_.cancelled()) return false;
        if (program_.advance(view, index, slice)) return true;
    }
}

bool EnsembleRunner::run_batch(ensemble::BatchArrays& batch) {
    const ensemble::View<double> view = ensemble::view_of(batch, spec_.times());
    const unsigned threads = static_cast<unsigned>(
        std::max<std::size_t>(1, std::min<std::size_t>(control_.threads(), batch.count)));
    // units of a few systems: at least ~16 per thread for balance, at most 64 systems each
    const std::size_t unit = std::clamp<std::size_t>(batch.count / (std::size_t(threads) * 16), 1, 64);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stopped{false};
    run_on_threads(threads, [&] {
        for (;;) {
            const std::size_t begin = next.fetch_add(unit);
            if (begin >= batch.count || stopped.load()) return;
            const std::size_t end = std::min(begin + unit, batch.count);
            for (std::size_t i = begin; i < end; ++i) {
                if (!run_system(view, i)) {
                    stopped.store(true);
                    return;
                }
                system_finished();
            }
        }
    });
    return !stopped.load();
}

// A continuation chain walks its row up the first axis, then back down from where the way up ended,
// each system starting from its predecessor's final state, so that a hysteresis loop shows (a failed
// or escaped system breaks the chain: its successor starts from the study's initial state). The
// chains (rows of a second axis) are independent: the threads take them whole.
bool EnsembleRunner::run_chains(ensemble::BatchArrays& batch) {
    const ensemble::View<double> view = ensemble::view_of(batch, spec_.times());
    const std::size_t states = std::size_t(batch.states);
    const std::size_t length = study_.chain_length(), chains = batch.count / length;
    const unsigned threads =
        static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(control_.threads(), chains)));
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stopped{false};
    run_on_threads(threads, [&] {
        for (std::size_t chain = next.fetch_add(1); chain < chains; chain = next.fetch_add(1)) {
            for (std::size_t i = chain * length; i < (chain + 1) * length; ++i) {
                if (stopped.load()) return;
                if (i > chain * length && !ensemble::is_failure_outcome(batch.status[i - 1]) &&
                    batch.status[i - 1] != ensemble::outcome_escaped)
                    for (std::size_t k = 0; k < states; ++k)
                        batch.initial_override[k * batch.count + i] =
                            batch.final_state[k * batch.count + i - 1];
                if (!run_system(view, i)) {
                    stopped.store(true);
                    return;
                }
                system_finished();
            }
        }
    });
    return !stopped.load();
}

bool EnsembleRunner::run(const std::function<void(const ensemble::BatchArrays&)>& on_batch) {
    const bool chains = study_.is_continuation();
    const int words = program_.carry_words();
    std::size_t per_batch =
        control_.systems_per_chunk(ensemble::batch_bytes_per_system(spec_, words, chains));
    if (chains) per_batch = total_; // a chain must stay in one batch
    control_.report_progress(0, total_, "integrating");
    for (std::size_t first = 0; first < total_; first += per_batch) {
        const std::size_t count = std::min(per_batch, total_ - first);
        ensemble::BatchArrays batch = ensemble::make_batch(study_, spec_, words, first, count, chains);
        const bool finished = chains ? run_chains(batch) : run_batch(batch);
        on_batch(batch);
        if (!finished) return false;
    }
    return true;
}

} // namespace bif::cpu
