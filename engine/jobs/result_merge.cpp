#include "engine/jobs/result_merge.h"

#include <algorithm>
#include <stdexcept>

namespace bif::jobs {

namespace {

study::NumberColumn& column_named(study::Result& whole, const std::string& name) {
    for (auto& column : whole.scalars)
        if (column.name == name) return column;
    whole.scalars.push_back({name, std::vector<double>(whole.system_count, study::missing_value)});
    return whole.scalars.back();
}

void append_new(std::vector<std::string>& to, const std::vector<std::string>& from) {
    for (const auto& line : from)
        if (std::find(to.begin(), to.end(), line) == to.end()) to.push_back(line);
}

} // namespace

void scatter_block(const study::Result& block, const std::vector<std::size_t>& systems,
                   study::Result& whole) {
    if (block.points.width() != whole.points.width() ||
        block.points.rows_per_system != whole.points.rows_per_system)
        throw std::logic_error("scatter_block: the block's point layout differs from the whole result's");
    const std::size_t rows = block.points.rows_per_system, width = block.points.width();
    for (std::size_t i = 0; i < systems.size(); ++i) {
        const std::size_t s = systems[i];
        whole.status[s] = block.status[i];
        if (rows == 0) continue;
        whole.points.rows_filled[s] = block.points.rows_filled[i];
        std::copy_n(block.points.values.begin() + long(i * rows * width), rows * width,
                    whole.points.values.begin() + long(s * rows * width));
    }
    for (const auto& column : block.scalars) {
        auto& target = column_named(whole, column.name);
        for (std::size_t i = 0; i < systems.size(); ++i)
            target.values[systems[i]] = column.values[i];
    }
}

study::Result gather_rows(const study::Result& part, const std::vector<std::size_t>& rows) {
    study::Result r;
    r.analysis = part.analysis;
    r.system_count = rows.size();
    r.info = part.info;
    auto pick = [&](const std::vector<double>& values) {
        std::vector<double> picked;
        picked.reserve(rows.size());
        for (std::size_t row : rows)
            picked.push_back(values[row]);
        return picked;
    };
    for (const auto& axis : part.axes)
        r.axes.push_back({axis.name, pick(axis.values)});
    for (const auto& column : part.scalars)
        r.scalars.push_back({column.name, pick(column.values)});
    r.points.columns = part.points.columns;
    r.points.rows_per_system = part.points.rows_per_system;
    const std::size_t span = part.points.rows_per_system * part.points.width();
    for (std::size_t row : rows) {
        r.status.push_back(part.status[row]);
        if (part.points.rows_filled.empty()) continue;
        r.points.rows_filled.push_back(part.points.rows_filled[row]);
        r.points.values.insert(r.points.values.end(), part.points.values.begin() + long(row * span),
                               part.points.values.begin() + long((row + 1) * span));
    }
    return r;
}

void merge_info(study::RunInfo& whole, const study::RunInfo& part) {
    if (!part.backend.empty()) whole.backend = part.backend;
    if (!part.device.empty()) whole.device = part.device;
    whole.precision = part.precision;
    if (part.code_path != study::CodePath::None) {
        whole.code_path = part.code_path;
        whole.code_note = part.code_note;
    }
    append_new(whole.notes, part.notes);
    append_new(whole.warnings, part.warnings);
    whole.compile_seconds += part.compile_seconds;
    whole.run_seconds += part.run_seconds;
    whole.orbit_seconds += part.orbit_seconds;
    whole.total_seconds += part.total_seconds;
}

} // namespace bif::jobs
