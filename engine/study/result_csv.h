// A result as CSV: a comment block (`# ` lines: what ran, how, and the study file itself), a header
// row, then one row per system and recorded point (a system with no points, or an analysis without
// a point block, gets one row). Columns: the swept values, "status", the scalar columns, then
// "point" (0-based row within the system) and the point block's columns. Missing values are empty;
// numbers are written shortest round-trip.
#pragma once

#include "engine/study/result.h"

#include <iosfwd>
#include <string_view>

namespace bif::study {

void write_result_csv(std::ostream& out, const Result& result, std::string_view study_json);

} // namespace bif::study
