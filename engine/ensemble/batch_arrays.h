// The host arrays of one batch of systems in the layout of bif::ensemble::View (structure of
// arrays, stride = the batch's system count): inputs filled from the study, carry zeroed, outputs
// NaN, statuses not_run.
#pragma once

#include "bif/study/view.h"
#include "engine/ensemble/study_spec.h"

#include <cstddef>
#include <vector>

namespace bif::ensemble {

struct BatchArrays {
    std::size_t first = 0; // study index of the batch's system 0
    std::size_t count = 0;
    int point_rows = 0, point_columns = 0, scalar_columns = 0, states = 0;
    std::vector<double> axis_values;
    std::vector<double> initial_override; // empty unless the batch runs continuation chains
    std::vector<unsigned int> carry;
    std::vector<double> points;
    std::vector<double> scalars;
    std::vector<int> status;
    std::vector<int> rows_filled;
    std::vector<double> final_state; // empty unless requested

    double point(std::size_t system, int row, int column) const {
        return points[(std::size_t(row) * std::size_t(point_columns) + std::size_t(column)) * count + system];
    }
    double scalar(std::size_t system, int column) const {
        return scalars[std::size_t(column) * count + system];
    }
};

// Bytes per system of a batch, for RunControl::systems_per_chunk.
std::size_t batch_bytes_per_system(const SpecStorage& spec, int carry_words, bool chains);

// Systems [first, first + count) of the study. `chains`: per-system initial states (continuation)
// and final states.
BatchArrays make_batch(const study::ResolvedStudy& study, const SpecStorage& spec, int carry_words,
                       std::size_t first, std::size_t count, bool chains);

// What refill_batch writes: everything make_batch does, or the inputs alone, for a batch whose
// outputs a device initializes and downloads over (engine/cuda). With the inputs alone, carry,
// outputs and statuses keep their values; those whose memory the batch already holds (a refilled
// batch) are sized, the others left empty for size_outputs, so that the page faults of fresh output
// memory come after the device ran, not before it can start.
// OutputsOnly: InputsOnly without the axis values too (a device batch that stages them itself,
// engine/cuda EnsembleBatch::upload with the study); axis_values is left empty.
enum class BatchFill { Everything, InputsOnly, OutputsOnly };

// Which outputs a batch holds on the host. A study whose result keeps neither points nor the
// program's scalars (a map without period or exponent columns) needs neither on the host: without
// them the batch has point_rows (or scalar_columns) 0 and empty arrays (rows_filled too, without
// points), so a device batch's download neither copies nor converts them. A run whose results stay
// on the device (engine/cuda/device_map.h) holds no statuses on the host either.
struct BatchOutputs {
    bool points = true;
    bool scalars = true;
    bool status = true;
};

// make_batch into an existing batch, reusing its arrays' memory: a lane that hands its finished
// batches back refills them without allocating (and without the page faults of fresh memory).
void refill_batch(BatchArrays& batch, const study::ResolvedStudy& study, const SpecStorage& spec,
                  int carry_words, std::size_t first, std::size_t count, bool chains,
                  BatchFill fill = BatchFill::Everything, BatchOutputs outputs = {});

// Sizes the outputs that refill_batch (BatchFill::InputsOnly) left empty; `outputs` as given to it.
// New elements are zero; the device's download writes over them.
void size_outputs(BatchArrays& batch, BatchOutputs outputs);

// The View over a batch; `times` are the shared trajectory times.
View<double> view_of(BatchArrays& batch, const std::vector<double>& times);

} // namespace bif::ensemble
