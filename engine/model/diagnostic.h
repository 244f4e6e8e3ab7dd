// Diagnostics about a user's model text: many per parse, each with a position and a short code.
// This is the first of the engine's three error channels (the others: typed exceptions at the
// engine API for toolchain and system failures, a status per trajectory for numerical failure).
#pragma once

#include <string>
#include <vector>

namespace bif::model {

enum class Severity { Note, Warning, Error };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code;        // short and stable, e.g. "E-syntax"; docs/codes list one example each
    std::string message;     // one sentence, no trailing period
    std::string file;        // as given to the parser
    int line = 0;            // 1-based physical line; 0 when the diagnostic is about the whole file
    int column = 0;          // 1-based column in that line; 0 when unknown
    std::string source_line; // the physical line's text, for the caret display

    // "file:line:col: error: message [code]" followed by the source line and a caret line.
    std::string format() const;
};

bool has_errors(const std::vector<Diagnostic>& diagnostics);
const char* severity_name(Severity s);

} // namespace bif::model
