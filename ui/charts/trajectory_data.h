// One system's trajectory as the charts draw it: samples of every recorded quantity against time,
// and optionally the section points on it. Immutable once built; shared between the charts.
#pragma once

#include "engine/study/result.h"

#include <cstddef>
#include <string>
#include <vector>

namespace bif::ui {

struct TrajectoryData {
    std::vector<std::string> quantities;
    std::vector<double> t;
    std::vector<std::vector<double>> values; // [quantity][sample]
    std::vector<double> mark_t;
    std::vector<std::vector<double>> marks; // [quantity][mark]

    int index(const std::string& quantity) const; // -1 when absent
};

// A trajectory result's points block ("t" then the quantities) of one system.
TrajectoryData trajectory_from_result(const study::Result& result, std::size_t system = 0);

// Marks from a section result whose columns are "t" then the same quantities, rows from `first_row`.
void add_section_marks(TrajectoryData& data, const study::Result& section, std::size_t first_row);

} // namespace bif::ui
