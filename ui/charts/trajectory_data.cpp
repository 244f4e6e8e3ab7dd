#include "ui/charts/trajectory_data.h"

#include <algorithm>

namespace bif::ui {

int TrajectoryData::index(const std::string& quantity) const {
    const auto it = std::find(quantities.begin(), quantities.end(), quantity);
    return it == quantities.end() ? -1 : int(it - quantities.begin());
}

TrajectoryData trajectory_from_result(const study::Result& result, std::size_t system) {
    TrajectoryData data;
    const study::PointBlock& points = result.points;
    if (points.width() < 1 || system >= points.rows_filled.size()) return data;
    data.quantities.assign(points.columns.begin() + 1, points.columns.end());
    data.values.resize(data.quantities.size());
    const std::size_t rows = points.rows_filled[system];
    for (std::size_t r = 0; r < rows; ++r) {
        data.t.push_back(points.value(system, r, 0));
        for (std::size_t q = 0; q < data.quantities.size(); ++q)
            data.values[q].push_back(points.value(system, r, q + 1));
    }
    return data;
}

void add_section_marks(TrajectoryData& data, const study::Result& section, std::size_t first_row) {
    const study::PointBlock& points = section.points;
    data.mark_t.clear();
    data.marks.assign(data.quantities.size(), {});
    if (points.rows_filled.empty() || points.width() != data.quantities.size() + 1) return;
    for (std::size_t r = first_row; r < points.rows_filled[0]; ++r) {
        data.mark_t.push_back(points.value(0, r, 0));
        for (std::size_t q = 0; q < data.quantities.size(); ++q)
            data.marks[q].push_back(points.value(0, r, q + 1));
    }
}

} // namespace bif::ui
