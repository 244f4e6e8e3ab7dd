#include "engine/cuda/chain_runner.h"

#include "bif/study/entry.h"
#include "engine/cuda/ensemble_batch.h"
#include "engine/cuda/ensemble_program.h"
#include "engine/cuda/pinned_buffer.h"
#include "engine/cuda/stream.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <vector>

namespace bif::cuda {

namespace {

using Clock = std::chrono::steady_clock;

// The per-system arrays of a batch that a column takes from the whole study, and gives back.
struct ColumnArrays {
    std::vector<double> ensemble::BatchArrays::*member;
    std::size_t per_system; // columns of it per system
};

// Copies system `from` of `source` to system `to` of `target`, for each array (structure of arrays:
// column k of system s at [k * count + s]).
template <class Arrays>
void copy_system(const ensemble::BatchArrays& source, std::size_t from, ensemble::BatchArrays& target,
                 std::size_t to, const Arrays& arrays) {
    for (const auto& a : arrays)
        for (std::size_t k = 0; k < a.per_system; ++k)
            (target.*a.member)[k * target.count + to] = (source.*a.member)[k * source.count + from];
}

// The shape of a column: one system per chain, with initial and final states.
BatchShape column_shape(const ensemble::SpecStorage& spec, std::size_t chains, int carry_words,
                        int real_bytes) {
    BatchShape shape = batch_shape(spec, carry_words, real_bytes);
    shape.capacity = chains;
    shape.chains = true;
    return shape;
}

// Launches slices of one uploaded column until all of its systems finished, each aimed at
// slice_seconds as EnsembleRunner's are (the budget carries over from column to column).
class SliceLoop {
  public:
    SliceLoop(const EnsembleProgram& program, const RunnerOptions& options)
        : program_(program), stream_(program.context()), unfinished_(program.context(), 1),
          left_word_(program.context(), sizeof(unsigned int)), slice_seconds_(options.slice_seconds),
          budget_(whole_slices(options.first_budget)) {}

    const Stream& stream() const { return stream_; }
    long long launches() const { return launches_; }

    // False when cancelled before the column finished.
    bool finish(const EnsembleBatch& batch, const study::RunControl& control) {
        const std::span<unsigned int> left(reinterpret_cast<unsigned int*>(left_word_.data()), 1);
        for (;;) {
            const auto start = Clock::now();
            program_.launch_slice(stream_, batch, budget_, unfinished_);
            unfinished_.download_async(left, stream_);
            stream_.synchronize();
            ++launches_;
            if (left[0] == 0) return true;
            if (control.cancelled()) return false;
            const double took = std::chrono::duration<double>(Clock::now() - start).count();
            const double scale = std::clamp(slice_seconds_ / std::max(took, 1e-6), 0.25, 4.0);
            budget_ = whole_slices(static_cast<long long>(double(budget_) * scale));
        }
    }

  private:
    const EnsembleProgram& program_;
    Stream stream_;
    DeviceBuffer<unsigned int> unfinished_;
    PinnedBuffer left_word_;
    double slice_seconds_;
    long long budget_;
    long long launches_ = 0;
};

} // namespace

ChainRunner::ChainRunner(EnsembleDevice device, const study::ResolvedStudy& study,
                         const ensemble::SpecStorage& spec, int real_bytes, study::RunControl& control,
                         RunnerOptions options)
    : device_(std::move(device)), study_(study), spec_(spec), real_bytes_(real_bytes), control_(control),
      options_(options) {}

bool ChainRunner::run(const std::function<void(const ensemble::BatchArrays&)>& on_batch) {
    const std::size_t total = study_.system_count(), length = study_.chain_length();
    const std::size_t chains = study_.chain_count();
    ensemble::BatchArrays all = ensemble::make_batch(study_, spec_, 0, 0, total, true);
    ensemble::BatchArrays column = ensemble::make_batch(study_, spec_, 0, 0, chains, true);
    const std::size_t states = std::size_t(all.states);
    const std::size_t points = std::size_t(all.point_rows) * std::size_t(all.point_columns);
    const std::vector<ColumnArrays> inputs{
        {&ensemble::BatchArrays::axis_values, all.axis_values.size() / total},
        {&ensemble::BatchArrays::initial_override, states}};
    const std::vector<ColumnArrays> outputs{
        {&ensemble::BatchArrays::points, points},
        {&ensemble::BatchArrays::scalars, std::size_t(all.scalar_columns)},
        {&ensemble::BatchArrays::final_state, states}};

    const EnsembleProgram program(device_.context, *device_.module, spec_.spec(), spec_.states(),
                                  real_bytes_);
    EnsembleBatch batch(device_.context, column_shape(spec_, chains, program.carry_words(), real_bytes_),
                        spec_.times(), options_.staging);
    SliceLoop slices(program, options_);
    control_.report_progress(0, total, "integrating");
    bool cancelled = false;
    for (std::size_t c = 0; c < length && !cancelled; ++c) {
        for (std::size_t r = 0; r < chains; ++r) {
            const std::size_t s = r * length + c;
            // the chain goes on from its predecessor unless that one failed or escaped
            if (c > 0 && !ensemble::is_failure_outcome(all.status[s - 1]) &&
                all.status[s - 1] != ensemble::outcome_escaped)
                for (std::size_t k = 0; k < states; ++k)
                    all.initial_override[k * total + s] = all.final_state[k * total + s - 1];
            copy_system(all, s, column, r, inputs);
        }
        batch.upload(column, slices.stream());
        cancelled = !slices.finish(batch, control_);
        batch.download(column, slices.stream());
        for (std::size_t r = 0; r < chains; ++r) {
            // a cancelled column keeps only what finished; its other systems stay not_run
            if (cancelled && column.status[r] == ensemble::outcome_not_run) continue;
            const std::size_t s = r * length + c;
            copy_system(column, r, all, s, outputs);
            all.status[s] = column.status[r];
            all.rows_filled[s] = column.rows_filled[r];
        }
        control_.report_progress((c + 1) * chains, total, "integrating");
    }
    launches_ = slices.launches();
    on_batch(all);
    return !cancelled;
}

} // namespace bif::cuda
