// A result as CSV: a comment block (`# ` lines: what ran, how, and the study file itself), a header
// row, then one row per system and recorded point (a system with no points, or an analysis without
// a point block, gets one row). Columns: the swept values, "status", the scalar columns, then
// "point" (0-based row within the system) and the point block's columns. Missing values are empty;
// numbers are written shortest round-trip (std::to_chars).
//
// The three parts can be written apart, so that a streamed run writes the rows of each block of
// systems as it finishes and the comment block, whose counts it knows only at the end, last:
// write_result_csv(out, r, json) is write_csv_comment_block(out, summarize(r), json),
// write_csv_header(out, r), write_csv_rows(out, r).
#pragma once

#include "engine/study/result.h"
#include "engine/study/result_summary.h"

#include <iosfwd>
#include <string_view>

namespace bif::study {

// Formatting threads: 0 means every hardware thread. Rows are formatted in parallel in chunks of
// about a megabyte each and written in system order, so the text never depends on the count.
void write_result_csv(std::ostream& out, const Result& result, std::string_view study_json,
                      unsigned threads = 0);

// The `# ` lines: the summary, then the study file line by line.
void write_csv_comment_block(std::ostream& out, const ResultSummary& summary, std::string_view study_json);

// The header row of this result's columns (any block of a run has the run's columns).
void write_csv_header(std::ostream& out, const Result& layout);

// The rows of every system of `block`, in its order.
void write_csv_rows(std::ostream& out, const Result& block, unsigned threads = 0);

} // namespace bif::study
