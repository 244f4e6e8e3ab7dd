// Readers for the statements of an .ode file, one per kind; the classifier decides which applies.
// Each reads the logical line from `begin` (just after the command word or marker), appends what
// it finds to the declarations and reports problems with positions.
#pragma once

#include "engine/model/declarations.h"
#include "engine/model/source_text.h"

namespace bif::model::detail {

class DiagnosticSink;

enum class ValueListKind { Parameters, Numbers, InitialValues };

// `par a=1, b=2 c`, `number n=5`, `init x=1 y=2`: plain numbers as XPPAUT reads them.
void read_value_list(const LogicalLine& line, std::size_t begin, ValueListKind kind, Declarations& out,
                     DiagnosticSink& sink);

// Reads one declared value the way XPPAUT does (C's atof), warning where that differs from the
// text's apparent meaning.
double read_declared_value(const LogicalLine& line, std::size_t begin, std::size_t end,
                           const std::string& name, ValueListKind kind, DiagnosticSink& sink);

// `global sign {condition} {x=value;y=value}`, also without braces around the condition.
void read_global(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink);

// `@ name=value, name=value`; begin is the offset of `@`.
void read_options(const LogicalLine& line, std::size_t at, Declarations& out, DiagnosticSink& sink);

// `table name % npts xlo xhi formula` (also `tabular`), `table name filename`.
void read_table(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink);

// `special name=conv(type,n,ncon,w,root)` and the other network operators.
void read_special(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink);

// `set name {a=1,x=0,dt=.25}`.
void read_set(const LogicalLine& line, std::size_t begin, Declarations& out, DiagnosticSink& sink);

// Parses the characters [begin, end) of a line as one formula (blanks removed first, as XPPAUT does).
std::optional<Ast> read_formula(const LogicalLine& line, std::size_t begin, std::size_t end,
                                DiagnosticSink& sink);

} // namespace bif::model::detail
