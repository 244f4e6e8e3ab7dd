#include "engine/ensemble/batch_arrays.h"

#include "engine/study/result.h"

namespace bif::ensemble {

std::size_t batch_bytes_per_system(const SpecStorage& spec, int carry_words, bool chains) {
    const std::size_t doubles = std::size_t(spec.spec().axis_count) +
                                std::size_t(spec.point_rows()) * std::size_t(spec.point_columns()) +
                                std::size_t(spec.scalar_columns()) +
                                (chains ? 2 * std::size_t(spec.states()) : 0);
    return 8 * doubles + 4 * std::size_t(carry_words) + 2 * sizeof(int);
}

BatchArrays make_batch(const study::ResolvedStudy& study, const SpecStorage& spec, int carry_words,
                       std::size_t first, std::size_t count, bool chains) {
    BatchArrays b;
    b.first = first;
    b.count = count;
    b.point_rows = spec.point_rows();
    b.point_columns = spec.point_columns();
    b.scalar_columns = spec.scalar_columns();
    b.states = spec.states();
    const int axes = spec.spec().axis_count;
    b.axis_values.resize(std::size_t(axes) * count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t point = study.grid_point(first + i);
        for (int a = 0; a < axes; ++a)
            b.axis_values[std::size_t(a) * count + i] = study.grid.value(point, std::size_t(a));
    }
    if (chains) {
        const std::size_t n = std::size_t(b.states);
        b.initial_override.resize(n * count);
        b.final_state.assign(n * count, study::missing_value);
        std::vector<double> p(study.model->num_param_slots()), y(n);
        for (std::size_t i = 0; i < count; ++i) {
            study.system_values(first + i, p.data(), y.data());
            for (std::size_t k = 0; k < n; ++k)
                b.initial_override[k * count + i] = y[k];
        }
    }
    b.carry.assign(std::size_t(carry_words) * count, 0u);
    b.points.assign(std::size_t(b.point_rows) * std::size_t(b.point_columns) * count, study::missing_value);
    b.scalars.assign(std::size_t(b.scalar_columns) * count, study::missing_value);
    b.status.assign(count, 0);
    b.rows_filled.assign(count, 0);
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
    v.status = b.status.data();
    v.rows_filled = b.rows_filled.data();
    v.final_state = b.final_state.empty() ? nullptr : b.final_state.data();
    return v;
}

} // namespace bif::ensemble
