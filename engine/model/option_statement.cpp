// `@ name=value ...` option lines and `set name {a=1,...}` lines.
#include "engine/model/diagnostic_sink.h"
#include "engine/model/option_names.h"
#include "engine/model/statement_readers.h"
#include "engine/model/text.h"

namespace bif::model::detail {

namespace {

struct Item {
    std::size_t begin;
    std::string text;
};

// Items separated by blanks and commas, with blanks around `=` removed (reported once).
std::vector<Item> split_pairs(const LogicalLine& line, std::size_t begin, std::size_t end,
                              bool& blanks_at_equals) {
    std::vector<Item> items;
    std::size_t i = begin;
    blanks_at_equals = false;
    auto is_separator = [](char c) { return is_blank(c) || c == ','; };
    while (i < end) {
        if (is_separator(line.text[i])) {
            ++i;
            continue;
        }
        Item item{i, {}};
        while (i < end) {
            if (is_separator(line.text[i])) {
                std::size_t j = i;
                while (j < end && is_blank(line.text[j]))
                    ++j;
                const bool joins =
                    (j < end && line.text[j] == '=') || (!item.text.empty() && item.text.back() == '=');
                if (!joins || line.text[i] == ',') break;
                blanks_at_equals = true;
                i = j;
                continue;
            }
            item.text += line.text[i++];
        }
        items.push_back(std::move(item));
    }
    return items;
}

void read_option(const LogicalLine& line, const Item& item, Declarations& out, DiagnosticSink& sink) {
    const std::size_t eq = item.text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.text.size()) {
        sink.warning("W-option-syntax", line.pos(item.begin),
                     "`" + item.text +
                         "` is not of the form name=value; XPPAUT ignores it, and so does Bifscope");
        return;
    }
    Option o;
    o.written = item.text.substr(0, eq);
    o.value = item.text.substr(eq + 1);
    o.name = canonical_option_name(o.written);
    if (o.name.empty()) {
        o.name = to_lower(o.written);
        sink.warning("W-unknown-option", line.pos(item.begin),
                     "XPPAUT 6.11 knows no option " + quoted(o.written) +
                         " and ignores it, and so does Bifscope");
    }
    o.used_by_bifscope = option_used_by_bifscope(o.name);
    o.where = line.pos(item.begin);
    // XPPAUT 6.11 reads any method starting with d as `discrete`: the model is a map
    if (o.name == "meth" && (o.value[0] == 'd' || o.value[0] == 'D') && !out.map_form)
        out.map_form = line.pos(item.begin + eq + 1);
    out.options.push_back(std::move(o));
}

} // namespace

void read_options(const LogicalLine& line, std::size_t at, Declarations& out, DiagnosticSink& sink) {
    if (at + 1 < line.size() && !is_blank(line.text[at + 1])) {
        sink.warning("W-option-at-space", line.pos(at),
                     "XPPAUT 6.11 ignores the first option when no blank follows `@`; write `@ name=value`");
    }
    bool blanks_at_equals = false;
    const std::vector<Item> items = split_pairs(line, at + 1, line.size(), blanks_at_equals);
    if (blanks_at_equals) {
        sink.warning("W-option-spaces", line.pos(at),
                     "XPPAUT 6.11 ignores options written with blanks around `=`; write name=value");
    }
    for (const Item& item : items)
        read_option(line, item, out, sink);
}

void read_set(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink) {
    const std::size_t open = line.text.find('{', begin);
    const std::size_t close = open == std::string::npos ? open : line.text.find('}', open);
    const std::string_view name =
        trim(std::string_view(line.text).substr(begin, open == std::string::npos ? open : open - begin));
    if (open == std::string::npos || close == std::string::npos || !is_name(name) ||
        !trim(std::string_view(line.text).substr(close + 1)).empty()) {
        std::size_t at = begin;
        while (at < line.size() && is_blank(line.text[at]))
            ++at;
        sink.error("E-set-syntax", line.pos(at), "a set is written set name {a=1,x=0,dt=.25}");
        return;
    }
    ParameterSet set;
    set.name = std::string(name);
    set.where = line.pos(name.data() - line.text.data());
    bool blanks_at_equals = false;
    for (const Item& item : split_pairs(line, open + 1, close, blanks_at_equals)) {
        const std::size_t eq = item.text.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.text.size()) {
            sink.error("E-set-syntax", line.pos(item.begin),
                       "`" + item.text + "` in set `" + set.name + "` is not of the form name=value");
            continue;
        }
        set.assignments.emplace_back(item.text.substr(0, eq), item.text.substr(eq + 1));
    }
    out.sets.push_back(std::move(set));
}

} // namespace bif::model::detail
