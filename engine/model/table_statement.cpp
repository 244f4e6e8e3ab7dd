// `table name % npts xlo xhi formula` and `table name filename` (XPPAUT's tabulated functions).
#include "engine/model/diagnostic_sink.h"
#include "engine/model/statement_readers.h"
#include "engine/model/text.h"

namespace bif::model::detail {

namespace {

constexpr long kMaxTablePoints = 1000000;

// The next blank-separated word of the line from `at`; empty at the end.
std::string_view next_word(const LogicalLine& line, std::size_t& at) {
    while (at < line.size() && is_blank(line.text[at]))
        ++at;
    const std::size_t begin = at;
    while (at < line.size() && !is_blank(line.text[at]))
        ++at;
    return std::string_view(line.text).substr(begin, at - begin);
}

SourcePos position_of(const LogicalLine& line, std::string_view word) {
    return line.pos(static_cast<std::size_t>(word.data() - line.text.data()));
}

// npts xlo xhi formula, after the `%`.
bool read_formula_table(const LogicalLine& line, std::size_t at, TableDeclaration& table,
                        DiagnosticSink& sink) {
    const std::string_view points = next_word(line, at);
    const std::string_view xlo = next_word(line, at);
    const std::string_view xhi = next_word(line, at);
    const LeadingNumber n = read_leading_number(points);
    const LeadingNumber lo = read_leading_number(xlo);
    const LeadingNumber hi = read_leading_number(xhi);
    if (n.kind != LeadingNumber::Kind::Whole || lo.kind != LeadingNumber::Kind::Whole ||
        hi.kind != LeadingNumber::Kind::Whole) {
        sink.error("E-table", table.where, "a formula table is written table name % npts xlo xhi formula(t)");
        return false;
    }
    if (n.value < 2 || n.value > double(kMaxTablePoints) || n.value != double(long(n.value))) {
        sink.error("E-table", position_of(line, points),
                   "a table has a whole number of points from 2 to " + std::to_string(kMaxTablePoints));
        return false;
    }
    if (!(lo.value < hi.value)) {
        sink.error("E-table", position_of(line, xlo), "a table needs xlo < xhi");
        return false;
    }
    while (at < line.size() && is_blank(line.text[at]))
        ++at;
    if (at == line.size()) {
        sink.error("E-table", table.where, "this table has no formula: table name % npts xlo xhi formula(t)");
        return false;
    }
    table.points = long(n.value);
    table.xlo = lo.value;
    table.xhi = hi.value;
    table.formula = read_formula(line, at, line.size(), sink);
    return table.formula.has_value();
}

} // namespace

void read_table(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink) {
    std::size_t at = begin;
    const std::string_view name = next_word(line, at);
    TableDeclaration table;
    table.where = position_of(line, name);
    if (!is_name(name)) {
        sink.error("E-table", name.empty() ? line.pos(begin) : table.where,
                   "a table is written table name % npts xlo xhi formula(t), or table name filename");
        return;
    }
    table.name = std::string(name);
    std::size_t after_name = at;
    const std::string_view kind = next_word(line, after_name);
    if (kind == "%") {
        if (!read_formula_table(line, after_name, table, sink)) return;
    } else if (kind == "@") {
        sink.error("E-table", position_of(line, kind),
                   "two-dimensional tables (table name @ file) are not supported");
        return;
    } else {
        std::string_view file = trim(std::string_view(line.text).substr(at));
        if (file.empty()) {
            sink.error("E-table", table.where,
                       "this table has neither a formula (% npts xlo xhi f(t)) nor a file");
            return;
        }
        table.file_where = position_of(line, file);
        if (file.size() >= 2 && file.front() == '"' && file.back() == '"')
            file = file.substr(1, file.size() - 2);
        table.file = std::string(file);
    }
    out.definitions.push_back({DefinitionKind::Table, out.tables.size()});
    out.tables.push_back(std::move(table));
}

} // namespace bif::model::detail
