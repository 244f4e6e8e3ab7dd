#include "engine/model/diagnostic.h"

#include <algorithm>

namespace bif::model {

const char* severity_name(Severity s) {
    switch (s) {
    case Severity::Note:
        return "note";
    case Severity::Warning:
        return "warning";
    case Severity::Error:
        return "error";
    }
    return "error";
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

namespace {

// The caret line keeps the tabs of the source line so that the caret lands under the column.
std::string caret_line(const std::string& source, int column) {
    std::string caret;
    for (int i = 0; i + 1 < column; ++i) {
        const bool tab = static_cast<std::size_t>(i) < source.size() && source[i] == '\t';
        caret += tab ? '\t' : ' ';
    }
    return caret + '^';
}

} // namespace

std::string Diagnostic::format() const {
    std::string out = file;
    if (line > 0) {
        out += ':' + std::to_string(line);
        if (column > 0) out += ':' + std::to_string(column);
    }
    out += std::string(": ") + severity_name(severity) + ": " + message + " [" + code + "]";
    if (line > 0 && !source_line.empty()) {
        out += '\n' + source_line;
        if (column > 0) out += '\n' + caret_line(source_line, column);
    }
    return out;
}

} // namespace bif::model
