// `special name=conv(type,n,ncon,w,root)` and the other network operators XPPAUT offers
// (simplenet.c): kept as text here, checked and unrolled by the model builder (network.cpp).
#include "engine/model/diagnostic_sink.h"
#include "engine/model/statement_readers.h"
#include "engine/model/text.h"

namespace bif::model::detail {

void read_special(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink) {
    const std::size_t eq = line.text.find('=', begin);
    const std::string_view name =
        trim(std::string_view(line.text).substr(begin, eq == std::string::npos ? eq : eq - begin));
    const auto syntax = [&](std::size_t at) {
        sink.error("E-special", line.pos(at),
                   "a network is written special name=conv(type,n,ncon,weights,root)");
    };
    if (eq == std::string::npos || !is_name(name)) return syntax(begin);
    SpecialDeclaration s;
    s.name = std::string(name);
    s.where = line.pos(static_cast<std::size_t>(name.data() - line.text.data()));
    std::string rhs;
    std::vector<SourcePos> at;
    for (std::size_t i = eq + 1; i < line.size(); ++i) {
        if (is_blank(line.text[i])) continue;
        rhs += line.text[i];
        at.push_back(line.pos(i));
    }
    const std::size_t open = rhs.find('(');
    if (open == std::string::npos || open == 0 || rhs.back() != ')') return syntax(eq + 1);
    s.kind = to_lower(std::string_view(rhs).substr(0, open));
    s.kind_where = at[0];
    std::size_t start = open + 1;
    for (std::size_t i = start; i < rhs.size(); ++i) {
        if (rhs[i] != ',' && i + 1 != rhs.size()) continue;
        s.arguments.push_back(rhs.substr(start, i - start));
        s.argument_where.push_back(i > start ? at[start] : at[i]);
        start = i + 1;
    }
    out.definitions.push_back({DefinitionKind::Special, out.specials.size()});
    out.specials.push_back(std::move(s));
}

} // namespace bif::model::detail
