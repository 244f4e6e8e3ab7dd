// par / number / init lines and the values of x(0)=...
#include "engine/model/diagnostic_sink.h"
#include "engine/model/statement_readers.h"
#include "engine/model/text.h"

namespace bif::model::detail {

namespace {

const char* command_name(ValueListKind kind) {
    switch (kind) {
    case ValueListKind::Parameters:
        return "par";
    case ValueListKind::Numbers:
        return "number";
    case ValueListKind::InitialValues:
        return "init";
    }
    return "";
}

std::string zero_consequence(ValueListKind kind, const std::string& name) {
    return kind == ValueListKind::InitialValues ? "XPPAUT starts `" + name + "` at 0"
                                                : "XPPAUT sets `" + name + "` to 0";
}

// The list without blanks next to `=` (XPPAUT 6.11 fails on them: "Empty parameter"); warns once.
LogicalLine without_blanks_around_equals(const LogicalLine& line, std::size_t begin, ValueListKind kind,
                                         DiagnosticSink& sink) {
    LogicalLine out;
    bool warned = false;
    for (std::size_t i = begin; i < line.size(); ++i) {
        if (is_blank(line.text[i])) {
            std::size_t j = i;
            while (j < line.size() && is_blank(line.text[j]))
                ++j;
            const bool before_eq = j < line.size() && line.text[j] == '=';
            const bool after_eq = !out.text.empty() && out.text.back() == '=';
            if (before_eq || after_eq) {
                if (!warned) {
                    sink.warning("W-space-equals", line.pos(before_eq ? j : i - 1),
                                 std::string("XPPAUT 6.11 fails on blanks around `=` in `") +
                                     command_name(kind) + "` lines; write name=value");
                    warned = true;
                }
                i = j - 1;
                continue;
            }
        }
        out.append(line.text[i], line.pos(i));
    }
    out.origin.push_back(line.pos(line.size()));
    return out;
}

} // namespace

double read_declared_value(const LogicalLine& line, std::size_t begin, std::size_t end,
                           const std::string& name, ValueListKind kind, DiagnosticSink& sink) {
    const std::string_view text = trim(std::string_view(line.text).substr(begin, end - begin));
    const SourcePos where = line.pos(text.empty() ? begin : text.data() - line.text.data());
    const LeadingNumber v = read_leading_number(text);
    switch (v.kind) {
    case LeadingNumber::Kind::Whole:
        return v.value;
    case LeadingNumber::Kind::Prefix: {
        sink.warning("W-value-prefix", where,
                     "XPPAUT reads " + quoted(text) + " as " + format_number(v.value) +
                         ": values here are plain numbers, not formulas; Bifscope follows XPPAUT");
        return v.value;
    }
    case LeadingNumber::Kind::None: {
        std::string message =
            text.empty() ? "no value given for " + quoted(name) + ": " : quoted(text) + " is not a number: ";
        message += zero_consequence(kind, name);
        message += ", and so does Bifscope";
        sink.warning("W-value-zero", where, std::move(message));
    }
        return 0.0;
    }
    return 0.0;
}

void read_value_list(const LogicalLine& line, std::size_t begin, ValueListKind kind, Declarations& out,
                     DiagnosticSink& sink) {
    const LogicalLine list = without_blanks_around_equals(line, begin, kind, sink);
    std::size_t i = 0;
    bool any = false;
    while (i < list.size()) {
        if (is_blank(list.text[i]) || list.text[i] == ',') {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < list.size() && !is_blank(list.text[end]) && list.text[end] != ',')
            ++end;
        const std::string_view item = std::string_view(list.text).substr(i, end - i);
        const std::size_t eq = item.find('=');
        const std::string name(item.substr(0, eq));
        any = true;
        if (!is_name(name)) {
            sink.error("E-declaration", list.pos(i), quoted(item) + " is not of the form name=value");
        } else {
            const bool has_value = eq != std::string_view::npos;
            double value = 0.0;
            // A parameter or number without a value is 0 in XPPAUT, silently; an init without one too.
            if (has_value) value = read_declared_value(list, i + eq + 1, end, name, kind, sink);
            ValueDeclaration d{name, value, list.pos(i)};
            switch (kind) {
            case ValueListKind::Parameters:
                out.definitions.push_back({DefinitionKind::Parameter, out.parameters.size()});
                out.parameters.push_back(std::move(d));
                break;
            case ValueListKind::Numbers:
                out.definitions.push_back({DefinitionKind::Number, out.numbers.size()});
                out.numbers.push_back(std::move(d));
                break;
            case ValueListKind::InitialValues:
                out.initial_values.push_back(std::move(d));
                break;
            }
        }
        i = end;
    }
    if (!any) {
        std::size_t word = begin;
        while (word > 0 && is_name_char(line.text[word - 1]))
            --word;
        sink.warning("W-empty-declaration", line.pos(word),
                     std::string("this `") + command_name(kind) + "` line declares nothing");
    }
}

} // namespace bif::model::detail
