#include "engine/model/scope.h"

namespace bif::model::detail {

const char* symbol_kind_name(SymbolKind kind) {
    switch (kind) {
    case SymbolKind::State:
        return "state variable";
    case SymbolKind::Parameter:
        return "parameter";
    case SymbolKind::Derived:
        return "derived parameter";
    case SymbolKind::Number:
        return "number";
    case SymbolKind::Fixed:
        return "fixed variable";
    case SymbolKind::Function:
        return "function";
    case SymbolKind::Aux:
        return "aux quantity";
    case SymbolKind::Table:
        return "table";
    case SymbolKind::Network:
        return "network";
    }
    return "name";
}

const Symbol* Scope::define(const std::string& lower, Symbol symbol) {
    auto& table = symbol.kind == SymbolKind::Aux ? aux_names_ : names_;
    auto [it, inserted] = table.emplace(lower, symbol);
    return inserted ? nullptr : &it->second;
}

const Symbol* Scope::find(const std::string& lower) const {
    auto it = names_.find(lower);
    return it == names_.end() ? nullptr : &it->second;
}

const Symbol* Scope::find_aux(const std::string& lower) const {
    auto it = aux_names_.find(lower);
    return it == aux_names_.end() ? nullptr : &it->second;
}

} // namespace bif::model::detail
