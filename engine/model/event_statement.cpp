// global sign {condition} {name=value;name=value}
#include "engine/model/diagnostic_sink.h"
#include "engine/model/statement_readers.h"
#include "engine/model/text.h"

namespace bif::model::detail {

namespace {

std::size_t skip_blanks(const LogicalLine& line, std::size_t i) {
    while (i < line.size() && is_blank(line.text[i]))
        ++i;
    return i;
}

// The `}` closing the `{` at open, or npos.
std::size_t closing_brace(const LogicalLine& line, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < line.size(); ++i) {
        if (line.text[i] == '{') ++depth;
        if (line.text[i] == '}' && --depth == 0) return i;
    }
    return std::string::npos;
}

// Splits [begin, end) at `;` outside parentheses.
std::vector<std::pair<std::size_t, std::size_t>> split_actions(const LogicalLine& line, std::size_t begin,
                                                               std::size_t end) {
    std::vector<std::pair<std::size_t, std::size_t>> parts;
    int depth = 0;
    std::size_t start = begin;
    for (std::size_t i = begin; i < end; ++i) {
        const char c = line.text[i];
        if (c == '(') ++depth;
        if (c == ')') --depth;
        if (c == ';' && depth <= 0) {
            parts.emplace_back(start, i);
            start = i + 1;
        }
    }
    parts.emplace_back(start, end);
    return parts;
}

bool read_direction(const LogicalLine& line, std::size_t& i, int& direction, DiagnosticSink& sink) {
    const std::size_t start = i;
    while (i < line.size() && !is_blank(line.text[i]) && line.text[i] != '{')
        ++i;
    const std::string sign = line.text.substr(start, i - start);
    if (sign == "1" || sign == "+1") {
        direction = 1;
    } else if (sign == "-1") {
        direction = -1;
    } else if (sign == "0") {
        direction = 0;
        sink.warning(
            "W-event-sign-zero", line.pos(start),
            "with sign 0, XPPAUT fires the event only when the condition is exactly zero at the end of a "
            "step, so practically never on a smooth crossing; use 1 or -1 for a crossing");
    } else {
        sink.error("E-event-sign", line.pos(start),
                   sign.empty() ? "`global` needs a direction: global 1 condition {x=value}"
                                : "the direction of a `global` is 1, -1 or 0, not `" + sign + "`");
        return false;
    }
    return true;
}

void read_reset(const LogicalLine& line, std::size_t begin, std::size_t end, EventDeclaration& event,
                DiagnosticSink& sink) {
    const std::string_view action = trim(std::string_view(line.text).substr(begin, end - begin));
    if (action.empty()) return;
    const std::size_t at = action.data() - line.text.data();
    const std::size_t eq = action.find('=');
    const std::string target(trim(action.substr(0, eq)));
    if (!is_name(target)) {
        sink.error("E-event-syntax", line.pos(at), "an event action is written name=value");
        return;
    }
    ResetDeclaration r;
    r.target = target;
    r.where = line.pos(at);
    if (eq == std::string_view::npos) {
        if (!iequals(target, "no_interp")) {
            sink.error("E-event-syntax", line.pos(at), "an event action is written name=value");
            return;
        }
    } else {
        r.value = read_formula(line, at + eq + 1, end, sink);
    }
    event.resets.push_back(std::move(r));
}

} // namespace

void read_global(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink) {
    EventDeclaration event;
    std::size_t i = skip_blanks(line, begin);
    event.where = line.pos(i);
    if (!read_direction(line, i, event.direction, sink)) return;
    i = skip_blanks(line, i);
    std::size_t cond_begin = i, cond_end = 0;
    if (i < line.size() && line.text[i] == '{') {
        const std::size_t close = closing_brace(line, i);
        if (close == std::string::npos) {
            sink.error("E-event-syntax", line.pos(i), "this `{` is never closed");
            return;
        }
        cond_begin = i + 1;
        cond_end = close;
        i = close + 1;
    } else {
        cond_end = line.text.find('{', i);
        if (cond_end == std::string::npos) cond_end = line.size();
        i = cond_end;
    }
    event.text = std::string(trim(std::string_view(line.text).substr(cond_begin, cond_end - cond_begin)));
    event.condition = read_formula(line, cond_begin, cond_end, sink);
    i = skip_blanks(line, i);
    if (i >= line.size() || line.text[i] != '{') {
        sink.error("E-event-syntax", line.pos(i),
                   "expected the actions in braces after the condition: {x=value;...}");
        return;
    }
    const std::size_t close = closing_brace(line, i);
    if (close == std::string::npos) {
        sink.error("E-event-syntax", line.pos(i), "this `{` is never closed");
        return;
    }
    const std::size_t after = skip_blanks(line, close + 1);
    if (after < line.size()) {
        sink.error("E-event-syntax", line.pos(after), "unexpected text after the actions of a `global`");
        return;
    }
    for (auto [a, b] : split_actions(line, i + 1, close))
        read_reset(line, a, b, event, sink);
    out.events.push_back(std::move(event));
}

} // namespace bif::model::detail
