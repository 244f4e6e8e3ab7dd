#include "engine/model/source_text.h"

#include "engine/model/diagnostic_sink.h"
#include "engine/model/text.h"

namespace bif::model::detail {

SourcePos LogicalLine::pos(std::size_t offset) const {
    if (origin.empty()) return {};
    return offset < origin.size() ? origin[offset] : origin.back();
}

LogicalLine LogicalLine::slice(std::size_t begin, std::size_t end, bool drop_blanks) const {
    LogicalLine out;
    end = std::min(end, text.size());
    for (std::size_t i = begin; i < end; ++i) {
        if (drop_blanks && is_blank(text[i])) continue;
        out.append(text[i], pos(i));
    }
    out.origin.push_back(pos(end));
    return out;
}

void LogicalLine::append(char c, SourcePos where) {
    if (origin.size() > text.size()) origin.pop_back(); // drop the end marker
    text.push_back(c);
    origin.push_back(where);
}

void LogicalLine::append(const LogicalLine& other, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end && i < other.text.size(); ++i)
        append(other.text[i], other.pos(i));
}

LogicalLine LogicalLine::from_text(std::string_view text, int line) {
    LogicalLine out;
    for (std::size_t i = 0; i < text.size(); ++i)
        out.append(text[i], {line, static_cast<int>(i) + 1});
    out.origin.push_back({line, static_cast<int>(text.size()) + 1});
    return out;
}

bool ends_file(std::string_view line) {
    if (line.empty() || (line[0] != 'd' && line[0] != 'D')) return false;
    std::size_t i = 0;
    while (i < line.size() && is_name_char(line[i]))
        ++i;
    while (i < line.size() && is_blank(line[i]))
        ++i;
    if (i == line.size()) return true;
    const char next = line[i];
    return next != '=' && next != '\'' && next != '(' && next != '/' && next != '[';
}

std::vector<std::string> split_physical_lines(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(start, end - start));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (end == text.size() && line.empty() && start == text.size()) break;
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

namespace {

// Where a trailing continuation backslash sits (blanks after it are tolerated); npos if none.
std::size_t continuation_backslash(const std::string& line) {
    std::size_t end = line.size();
    while (end > 0 && is_blank(line[end - 1]))
        --end;
    return (end > 0 && line[end - 1] == '\\') ? end - 1 : std::string::npos;
}

// XPPAUT reads the first line with atoi: a positive number there is the equation count of the
// old format.
bool selects_old_format(std::string_view first_line) {
    const std::string_view t = trim(first_line);
    std::size_t i = (!t.empty() && t[0] == '+') ? 1 : 0;
    bool positive = false;
    for (; i < t.size() && is_digit(t[i]); ++i)
        positive = positive || t[i] != '0';
    return positive;
}

bool is_comment(std::string_view trimmed) {
    return !trimmed.empty() && trimmed[0] == '#' && !istarts_with(trimmed, "#include");
}

} // namespace

SourceText split_source(std::string_view text, DiagnosticSink& sink) {
    SourceText out;
    out.physical_lines = split_physical_lines(text);
    const auto& phys = out.physical_lines;
    if (!phys.empty() && selects_old_format(phys[0])) {
        const std::size_t first = phys[0].find_first_not_of(" \t");
        sink.error("E-old-format", {1, static_cast<int>(first) + 1},
                   "a first line starting with a positive number selects XPPAUT's obsolete file format, "
                   "which Bifscope does not read");
    }
    for (std::size_t i = 0; i < phys.size(); ++i) {
        LogicalLine line;
        std::size_t k = i;
        for (;; ++k) {
            const std::size_t backslash = continuation_backslash(phys[k]);
            const std::size_t keep = backslash == std::string::npos ? phys[k].size() : backslash;
            for (std::size_t c = 0; c < keep; ++c)
                line.append(phys[k][c], {static_cast<int>(k) + 1, static_cast<int>(c) + 1});
            if (backslash == std::string::npos || k + 1 >= phys.size()) {
                line.origin.push_back({static_cast<int>(k) + 1, static_cast<int>(keep) + 1});
                break;
            }
        }
        i = k;
        const std::string_view t = trim(line.text);
        if (t.empty() || is_comment(t)) continue;
        if (ends_file(t)) break;
        out.lines.push_back(std::move(line));
    }
    return out;
}

} // namespace bif::model::detail
