// The names a formula can use, resolved to what they stand for. Built from the declarations of a
// file (parse_model) or from a finished Model (parse_expression).
#pragma once

#include "engine/model/ast.h"
#include "engine/symbolic/expr.h"

#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace bif::model::detail {

enum class SymbolKind { State, Parameter, Derived, Number, Fixed, Function, Aux, Table, Network };

const char* symbol_kind_name(SymbolKind kind); // "state variable", "parameter", ...

struct Symbol {
    SymbolKind kind;
    std::uint32_t index; // into the list of that kind
    SourcePos where;
};

struct FixedVariable {
    std::string name;
    const Ast* formula = nullptr; // null when it did not parse, or when `node` is already known
    SourcePos where;
    enum class Status { Pending, InProgress, Done, Failed } status = Status::Pending;
    sym::NodeId node = 0;
};

struct UserFunctionEntry {
    std::string name;
    std::vector<std::string> arguments; // lower case
    const Ast* body = nullptr;          // null when it did not parse
    SourcePos where;
    bool recursive = false; // on a call cycle (reported at the definition)
};

class Scope {
  public:
    // Adds a name (lower case). Aux names live apart: an aux quantity may reuse the name of a fixed
    // variable or function (XPPAUT warns "duplicate name" and runs). Returns the symbol already
    // holding the name when it cannot be added.
    const Symbol* define(const std::string& lower, Symbol symbol);
    const Symbol* find(const std::string& lower) const; // everything but aux names
    const Symbol* find_aux(const std::string& lower) const;

    std::uint32_t num_parameters = 0;
    std::uint32_t num_states = 0; // shift() counts over the states, then the fixed variables
    std::vector<double> numbers;
    std::vector<FixedVariable> fixed;
    std::vector<UserFunctionEntry> functions;
    std::vector<std::optional<std::uint32_t>> tables; // pool table of each table, once built
    std::deque<Ast> owned_asts;                       // bodies parsed for parse_expression (stable addresses)

  private:
    std::unordered_map<std::string, Symbol> names_;
    std::unordered_map<std::string, Symbol> aux_names_;
};

} // namespace bif::model::detail
