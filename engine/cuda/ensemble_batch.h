// The device arrays of one batch of systems in the layout of bif::ensemble::View (structure of
// arrays, stride = the batch's system count), in the run's precision (4- or 8-byte reals). Sized
// once for the largest batch and reused: upload() takes a host batch (engine/ensemble/batch_arrays.h,
// doubles) and starts it (carry zeroed, statuses not_run, outputs NaN); download() converts the
// outputs back into it. Only what the study records crosses the bus: the carry stays on the GPU.
// Both copy through page-locked staging buffers of the batch (PinnedBuffer), so that the copies of
// one batch run on the copy engines while another batch's kernels run. A shape with `chains` also
// carries each system's initial state up and its final state back (BatchArrays::initial_override,
// final_state), for continuation chains.
#pragma once

#include "bif/study/view.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/pinned_buffer.h"
#include "engine/cuda/pinned_pool.h"
#include "engine/ensemble/batch_arrays.h"
#include "engine/ensemble/study_spec.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace bif::cuda {

class Stream;

struct BatchShape {
    std::size_t capacity = 0; // systems
    int axes = 0, carry_words = 0, point_rows = 0, point_columns = 0, scalar_columns = 0, states = 0;
    int output_times = 0;
    int real_bytes = 8;
    bool chains = false; // continuation: per-system initial states go up, final states come back
    // The outputs that come back to the host (the device holds them all): the staging holds only
    // these, and download() needs a host batch refilled with the same (ensemble::refill_batch).
    ensemble::BatchOutputs downloaded;

    // Device bytes per system (for sizing batches to the GPU's free memory).
    std::size_t bytes_per_system() const;
    // Host bytes per system of the page-locked staging (inputs and the downloaded outputs in the
    // device's precision).
    std::size_t staging_bytes_per_system() const;
};

// The shape of a study's batches, all but the capacity (and `chains`).
BatchShape batch_shape(const ensemble::SpecStorage& spec, int carry_words, int real_bytes);

class EnsembleBatch {
  public:
    // `times`: the shared trajectory output times (may be empty). `staging`: where the page-locked
    // staging comes from and goes back to (pinned_pool.h); null: pinned for this batch alone.
    EnsembleBatch(const Context& context, const BatchShape& shape, const std::vector<double>& times,
                  std::shared_ptr<PinnedPool> staging = nullptr);

    const BatchShape& shape() const { return shape_; }
    std::size_t count() const { return count_; }
    // Whether the staging is page-locked (after the first download or prepare_downloads()).
    bool pinned() const { return inputs_.pinned() && outputs_.pinned(); }

    // Starts the host batch's systems (at most capacity); asynchronous on `stream`. The host batch
    // may change or go at once (its inputs are staged); the next upload() must wait until the
    // stream has been synchronised (download() does).
    void upload(const ensemble::BatchArrays& host, const Stream& stream);
    // The same for a host batch without axis values (BatchFill::OutputsOnly): its systems' values are
    // computed from `study` straight into the page-locked staging, so that the host batch holds
    // none (16 bytes a system of a two-parameter map, in every batch a run keeps).
    void upload(const ensemble::BatchArrays& host, const study::ResolvedStudy& study, const Stream& stream);
    // The download staging, page-locked: a lane's biggest host buffer, pinned at a cost of tens of
    // milliseconds, so a lane calls this once its first kernels are queued (while they run) rather
    // than before its first batch can start. download() makes it where nobody did.
    void prepare_downloads();
    // Statuses, rows, points and scalars into the host batch, sized here where the batch left its
    // outputs unsized (ensemble::refill_batch, BatchFill::InputsOnly); synchronises the stream.
    // The same as fetch() then unpack().
    void download(ensemble::BatchArrays& host, const Stream& stream);
    // download() in two halves, so that a lane can start its next batch in between: fetch() copies
    // the outputs the host keeps into the page-locked staging and synchronises the stream; unpack()
    // converts them into the host batch (of the fetched count) on the calling thread, and must come
    // before the next fetch(). The next upload() may come before unpack(), except for chains (their
    // states go up and come back through one staging buffer).
    void fetch(const Stream& stream);
    void unpack(ensemble::BatchArrays& host);

    template <class Real>
    ensemble::View<Real> view() const;
    // Device addresses of the batch's scalar column `column` (count() reals) and of its int statuses.
    driver::CUdeviceptr scalar_column_address(int column) const;
    driver::CUdeviceptr status_address() const { return status_.address(); }
    // Its section points (View's layout: point (i, row, column) at ((row * columns + column) * count()
    // + i) reals) and its int rows filled per system.
    driver::CUdeviceptr points_address() const { return points_.address(); }
    driver::CUdeviceptr rows_filled_address() const { return rows_filled_.address(); }

  private:
    // upload() after the axis values are staged in inputs_.
    void start(const ensemble::BatchArrays& host, std::size_t axis_reals, const Stream& stream);
    template <class Real>
    Real* pointer(const DeviceAllocation& a) const;
    // Byte offsets of the outputs in `outputs_`, fixed by the capacity.
    std::size_t scalars_offset() const;
    std::size_t status_offset() const;
    std::size_t rows_filled_offset() const;

    BatchShape shape_;
    std::size_t count_ = 0;
    std::size_t fetched_count_ = 0;
    DeviceAllocation axis_values_, times_, carry_, points_, scalars_, status_, rows_filled_;
    DeviceAllocation initial_override_, final_state_; // chains only
    std::shared_ptr<PinnedPool> staging_;
    PooledPinned inputs_;       // axis values
    PooledPinned outputs_;      // points, scalars, statuses, rows filled (prepare_downloads)
    PooledPinned chain_states_; // chains only: initial states going up, then final states coming back
};

} // namespace bif::cuda
