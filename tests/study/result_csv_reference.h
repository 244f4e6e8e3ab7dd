// The CSV writer as it was before the buffered rewrite of issue 14 (engine/study/result_csv.cpp, one
// stream insertion per value), kept verbatim but for the namespace: test_result_csv checks the new
// writer's output byte for byte against it, and bench_result_csv times it as the baseline.
#pragma once

#include "engine/study/result.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <string_view>

namespace bif::study::reference {

inline void write_number(std::ostream& out, double v) {
    if (std::isnan(v)) return;
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
    out.write(buffer, ec == std::errc() ? end - buffer : 0);
}

// Header cells are names the user chose (formulas such as "y1 - 1", "max(a,b)"): quoted when needed.
inline void write_cell_text(std::ostream& out, std::string_view text) {
    if (text.find_first_of(",\"\n") == std::string_view::npos) {
        out << text;
        return;
    }
    out << '"';
    for (char c : text)
        out << (c == '"' ? "\"\"" : std::string_view(&c, 1));
    out << '"';
}

inline void write_comment_block(std::ostream& out, const Result& r, std::string_view study_json) {
    const RunInfo& info = r.info;
    std::size_t failed = 0;
    for (auto s : r.status)
        failed += is_failure(s);
    out << "# bifscope result\n";
    out << "# analysis: " << name_of(r.analysis) << "\n";
    out << "# backend: " << info.backend << (info.device.empty() ? "" : " (" + info.device + ")") << ", "
        << (info.precision == codegen::Precision::Float ? "float" : "double")
        << ", code: " << name_of(info.code_path)
        << (info.code_note.empty() ? "" : " (" + info.code_note + ")") << "\n";
    out << "# systems: " << r.system_count << ", ok: " << r.count(SystemStatus::Ok) << ", failed: " << failed
        << ", not run: " << r.count(SystemStatus::NotRun) << "\n";
    out << "# complete: "
        << (info.complete ? "yes" : "no (cancelled; rows with status not_run hold no values)") << "\n";
    out << "# seconds: compile " << info.compile_seconds << ", run " << info.run_seconds << ", total "
        << info.total_seconds << "\n";
    for (const auto& note : info.notes)
        out << "# note: " << note << "\n";
    for (const auto& warning : info.warnings)
        out << "# warning: " << warning << "\n";
    out << "# study:\n";
    std::size_t begin = 0;
    while (begin < study_json.size()) {
        std::size_t end = study_json.find('\n', begin);
        if (end == std::string_view::npos) end = study_json.size();
        out << "# " << study_json.substr(begin, end - begin) << "\n";
        begin = end + 1;
    }
}

inline void write_header(std::ostream& out, const Result& r) {
    bool first = true;
    auto cell = [&](std::string_view name) {
        if (!first) out << ',';
        first = false;
        write_cell_text(out, name);
    };
    for (const auto& a : r.axes)
        cell(a.name);
    cell("status");
    for (const auto& s : r.scalars)
        cell(s.name);
    if (r.points.width() > 0) {
        cell("point");
        for (const auto& c : r.points.columns)
            cell(c);
    }
    out << '\n';
}

inline void write_system_prefix(std::ostream& out, const Result& r, std::size_t system) {
    for (const auto& a : r.axes) {
        write_number(out, a.values[system]);
        out << ',';
    }
    out << name_of(r.status[system]);
    for (const auto& s : r.scalars) {
        out << ',';
        write_number(out, s.values[system]);
    }
}

inline void write_system_rows(std::ostream& out, const Result& r, std::size_t system) {
    const PointBlock& points = r.points;
    if (points.width() == 0) {
        write_system_prefix(out, r, system);
        out << '\n';
        return;
    }
    const std::size_t rows = points.rows_filled.empty() ? 0 : points.rows_filled[system];
    for (std::size_t row = 0; row < std::max<std::size_t>(rows, 1); ++row) {
        write_system_prefix(out, r, system);
        out << ',';
        if (rows > 0) out << row;
        for (std::size_t c = 0; c < points.width(); ++c) {
            out << ',';
            if (rows > 0) write_number(out, points.value(system, row, c));
        }
        out << '\n';
    }
}

inline void write_result_csv_reference(std::ostream& out, const Result& result, std::string_view study_json) {
    write_comment_block(out, result, study_json);
    write_header(out, result);
    for (std::size_t system = 0; system < result.system_count; ++system)
        write_system_rows(out, result, system);
}

} // namespace bif::study::reference
