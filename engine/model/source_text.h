// Stage 1 of the front end: physical lines -> logical lines.
//
// A trailing `\` joins a line with the next one; `#` lines are comments (except `#include`, kept
// so that it can be refused); blank lines are dropped; `done` (any word starting with d in command
// position) ends the file. Every character of a logical line remembers the physical line and
// column it came from, so that later stages, which rewrite text (array expansion, removing
// blanks inside formulas), still report positions in the file the user wrote.
#pragma once

#include "engine/model/model.h"

#include <string>
#include <string_view>
#include <vector>

namespace bif::model::detail {

class DiagnosticSink;

struct LogicalLine {
    std::string text;
    std::vector<SourcePos> origin; // origin[i] is where text[i] came from; one extra entry for the end

    // Position of the character at offset (the end position for offsets past the text).
    SourcePos pos(std::size_t offset) const;
    std::size_t size() const { return text.size(); }
    // The characters [begin, end), optionally without blanks (XPPAUT removes all blanks inside
    // formulas before reading them).
    LogicalLine slice(std::size_t begin, std::size_t end, bool drop_blanks = false) const;
    void append(char c, SourcePos where);
    void append(const LogicalLine& other, std::size_t begin, std::size_t end);

    static LogicalLine from_text(std::string_view text, int line); // columns 1..n on one line
};

struct SourceText {
    std::vector<std::string> physical_lines; // without line terminators
    std::vector<LogicalLine> lines;          // up to `done`, comments and blank lines removed
};

// The file's lines without terminators (\n or \r\n), for caret displays.
std::vector<std::string> split_physical_lines(std::string_view text);

SourceText split_source(std::string_view text, DiagnosticSink& sink);

// Whether a (trimmed) logical line is XPPAUT's `done`: a word starting with d or D that is not
// the left side of a formula (`dx/dt=...`, `d=...`, `delta'=...`).
bool ends_file(std::string_view trimmed_line);

} // namespace bif::model::detail
