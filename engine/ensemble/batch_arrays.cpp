#include "engine/ensemble/batch_arrays.h"

#include "engine/study/result.h"
#include "engine/study/system_columns.h"

#include <algorithm>

namespace bif::ensemble {

std::size_t batch_bytes_per_system(const SpecStorage& spec, int carry_words, bool chains) {
    const std::size_t doubles = std::size_t(spec.spec().axis_count) +
                                std::size_t(spec.point_rows()) * std::size_t(spec.point_columns()) +
                                std::size_t(spec.scalar_columns()) +
                                (chains ? 2 * std::size_t(spec.states()) : 0);
    return 8 * doubles + 4 * std::size_t(carry_words) + 2 * sizeof(int);
}

namespace {

// Sizes `v` to `n` elements, all `value`. Memory already held (a refilled batch) is filled on
// several threads for big batches; fresh memory in one pass, as its page faults cost more than the
// filling and a second pass would only add to them.
template <class T>
void fill_parallel(std::vector<T>& v, std::size_t n, T value, BatchFill fill = BatchFill::Everything) {
    if (fill != BatchFill::Everything) return v.resize(n);
    if (v.capacity() < n) return v.assign(n, value);
    v.resize(n);
    study::for_each_piece(n, [&](std::size_t begin, std::size_t end) {
        std::fill(v.begin() + long(begin), v.begin() + long(end), value);
    });
}

// Inputs or outputs only: an output is sized where the batch holds its memory; fresh memory waits
// for size_outputs.
template <class T>
void size_if_held(std::vector<T>& v, std::size_t n) {
    if (v.capacity() >= n) return v.resize(n);
    v.clear();
}

} // namespace

void refill_batch(BatchArrays& b, const study::ResolvedStudy& study, const SpecStorage& spec, int carry_words,
                  std::size_t first, std::size_t count, bool chains, BatchFill fill, BatchOutputs outputs) {
    b.first = first;
    b.count = count;
    b.point_rows = outputs.points ? spec.point_rows() : 0;
    b.point_columns = spec.point_columns();
    b.scalar_columns = outputs.scalars ? spec.scalar_columns() : 0;
    b.states = spec.states();
    const std::size_t axes = std::size_t(spec.spec().axis_count);
    const bool host_axes = fill != BatchFill::OutputsOnly;
    b.axis_values.resize(host_axes ? axes * count : 0);
    for (std::size_t a = 0; host_axes && a < axes; ++a)
        study::fill_axis_values(study, a, first, count, b.axis_values.data() + a * count);
    b.initial_override.clear();
    b.final_state.clear();
    if (chains) {
        const std::size_t n = std::size_t(b.states);
        b.initial_override.resize(n * count);
        fill_parallel(b.final_state, n * count, study::missing_value, fill);
        std::vector<double> p(study.model->num_param_slots()), y(n);
        for (std::size_t i = 0; i < count; ++i) {
            study.system_values(first + i, p.data(), y.data());
            for (std::size_t k = 0; k < n; ++k)
                b.initial_override[k * count + i] = y[k];
        }
    }
    fill_parallel(b.carry, std::size_t(carry_words) * count, 0u, fill);
    if (fill != BatchFill::Everything) {
        size_if_held(b.points, std::size_t(b.point_rows) * std::size_t(b.point_columns) * count);
        size_if_held(b.scalars, std::size_t(b.scalar_columns) * count);
        size_if_held(b.status, outputs.status ? count : 0);
        size_if_held(b.rows_filled, outputs.points ? count : 0);
        return;
    }
    fill_parallel(b.points, std::size_t(b.point_rows) * std::size_t(b.point_columns) * count,
                  study::missing_value, fill);
    fill_parallel(b.scalars, std::size_t(b.scalar_columns) * count, study::missing_value, fill);
    fill_parallel(b.status, outputs.status ? count : 0, 0, fill);
    fill_parallel(b.rows_filled, outputs.points ? count : 0, 0, fill);
}

void size_outputs(BatchArrays& b, BatchOutputs outputs) {
    b.points.resize(std::size_t(b.point_rows) * std::size_t(b.point_columns) * b.count);
    b.scalars.resize(std::size_t(b.scalar_columns) * b.count);
    b.status.resize(outputs.status ? b.count : 0);
    b.rows_filled.resize(outputs.points ? b.count : 0);
}

BatchArrays make_batch(const study::ResolvedStudy& study, const SpecStorage& spec, int carry_words,
                       std::size_t first, std::size_t count, bool chains) {
    BatchArrays b;
    refill_batch(b, study, spec, carry_words, first, count, chains);
    return b;
}

View<double> view_of(BatchArrays& b, const std::vector<double>& times) {
    View<double> v;
    v.stride = b.count;
    v.axis_values = b.axis_values.empty() ? nullptr : b.axis_values.data();
    v.initial_override = b.initial_override.empty() ? nullptr : b.initial_override.data();
    v.times = times.empty() ? nullptr : times.data();
    v.carry = b.carry.empty() ? nullptr : b.carry.data();
    v.points = b.points.empty() ? nullptr : b.points.data();
    v.point_columns = b.point_columns;
    v.point_rows = b.point_rows;
    v.scalars = b.scalars.empty() ? nullptr : b.scalars.data();
    v.status = b.status.empty() ? nullptr : b.status.data();
    v.rows_filled = b.rows_filled.data();
    v.final_state = b.final_state.empty() ? nullptr : b.final_state.data();
    return v;
}

} // namespace bif::ensemble
