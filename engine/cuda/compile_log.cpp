#include "engine/cuda/compile_log.h"

#include <optional>
#include <string_view>

namespace bif::cuda {

namespace {

std::string nth_line(const std::string& text, int line) {
    std::size_t start = 0;
    for (int i = 1; i < line; ++i) {
        start = text.find('\n', start);
        if (start == std::string::npos) return "";
        ++start;
    }
    if (start >= text.size()) return "";
    const std::size_t end = text.find('\n', start);
    return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// "<part>(<line>): <message>" where <part> names one of the parts.
std::optional<CompileDiagnostic> parse_line(std::string_view line, const std::vector<SourcePart>& parts) {
    const std::size_t open = line.find('(');
    if (open == std::string_view::npos || open == 0) return std::nullopt;
    const std::size_t close = line.find("): ", open);
    if (close == std::string_view::npos || close == open + 1 || close - open > 10) return std::nullopt;
    int number = 0;
    for (std::size_t i = open + 1; i < close; ++i) {
        if (line[i] < '0' || line[i] > '9') return std::nullopt;
        number = number * 10 + (line[i] - '0');
    }
    const std::string_view file = line.substr(0, open);
    for (const SourcePart& part : parts)
        if (file == part.name || file == "\"" + part.name + "\"")
            return CompileDiagnostic{part.name, number, std::string(line), nth_line(part.text, number)};
    return std::nullopt;
}

template <class Visit>
void for_each_line(const std::string& text, Visit visit) {
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        visit(std::string_view(text).substr(start, end - start));
        start = end + 1;
    }
}

} // namespace

std::vector<CompileDiagnostic> map_compile_log(const std::string& log, const std::vector<SourcePart>& parts) {
    std::vector<CompileDiagnostic> diagnostics;
    for_each_line(log, [&](std::string_view line) {
        if (auto diagnostic = parse_line(line, parts)) diagnostics.push_back(std::move(*diagnostic));
    });
    return diagnostics;
}

std::string annotate_compile_log(const std::string& log, const std::vector<SourcePart>& parts) {
    std::string out;
    for_each_line(log, [&](std::string_view line) {
        out += line;
        out += '\n';
        if (auto diagnostic = parse_line(line, parts); diagnostic && !diagnostic->line_text.empty())
            out += "    | " + diagnostic->line_text + "\n";
    });
    return out;
}

} // namespace bif::cuda
