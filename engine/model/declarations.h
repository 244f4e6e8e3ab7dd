// What the statement classifier found in a file, before names are resolved: one list per kind of
// statement, in file order, with the parsed formulas. A formula that did not parse is kept as an
// empty optional, so that its name still counts as defined and causes no follow-up errors.
#pragma once

#include "engine/model/ast.h"
#include "engine/model/model.h"

#include <optional>
#include <string>
#include <vector>

namespace bif::model::detail {

struct ValueDeclaration {
    std::string name; // as written
    double value = 0.0;
    SourcePos where;
};

struct FormulaDeclaration {
    std::string name; // as written
    std::optional<Ast> formula;
    SourcePos where;
};

struct FunctionDeclaration {
    std::string name;
    std::vector<std::string> arguments; // lower case
    std::string body;                   // as written
    std::optional<Ast> formula;
    SourcePos where;
};

// `table name % npts xlo xhi formula(t)` or `table name file`.
struct TableDeclaration {
    std::string name; // as written
    SourcePos where;
    long points = 0; // formula tables
    double xlo = 0.0;
    double xhi = 0.0;
    std::optional<Ast> formula;
    std::string file; // file tables: the path as written (relative to the .ode file)
    SourcePos file_where;
};

// `special name=kind(arguments)`: a network operator, its arguments as written (blanks removed).
struct SpecialDeclaration {
    std::string name;
    SourcePos where;
    std::string kind; // lower case: conv, sparse, mmult, fconv, fsparse, fmmult, ...
    SourcePos kind_where;
    std::vector<std::string> arguments;
    std::vector<SourcePos> argument_where;
};

struct ResetDeclaration {
    std::string target; // as written
    std::optional<Ast> value;
    SourcePos where;
};

struct EventDeclaration {
    int direction = 1;
    std::optional<Ast> condition;
    std::string text;
    std::vector<ResetDeclaration> resets;
    SourcePos where;
};

// The kinds of named definitions, for duplicate checks in file order.
enum class DefinitionKind { State, Parameter, Number, Derived, Fixed, Aux, Function, Table, Special };

struct DefinitionRef {
    DefinitionKind kind;
    std::size_t index; // into the list of that kind
};

struct Declarations {
    std::vector<FormulaDeclaration> odes;
    std::vector<ValueDeclaration> parameters;
    std::vector<ValueDeclaration> numbers;
    std::vector<ValueDeclaration> initial_values;
    std::vector<FormulaDeclaration> derived;
    std::vector<FormulaDeclaration> fixed;
    std::vector<FormulaDeclaration> aux;
    std::vector<FunctionDeclaration> functions;
    std::vector<TableDeclaration> tables;
    std::vector<SpecialDeclaration> specials;
    std::vector<EventDeclaration> events;
    std::vector<Option> options;
    std::vector<ParameterSet> sets;
    std::vector<std::string> comments;
    std::vector<DefinitionRef> definitions; // every named definition, in file order
    // Where the file first made itself a map (x(t+1)=..., or `@ meth=discrete`); absent for a flow.
    std::optional<SourcePos> map_form;
    bool has_prime_form = false; // some x'=... or dx/dt=... line
};

} // namespace bif::model::detail
