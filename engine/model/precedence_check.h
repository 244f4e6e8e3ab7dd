// Where XPPAUT's precedence gives a formula a different meaning than ordinary mathematics.
#pragma once

#include "engine/model/ast.h"

#include <string>

namespace bif::model::detail {

class DiagnosticSink;

// Walks both trees of the same tokens together; at each place where they stop agreeing, warns
// (W-precedence) at the operator that ordinary precedence would apply last, showing both readings.
void warn_precedence_differences(const Ast& xppaut, const Ast& ordinary, DiagnosticSink& sink);

// Fully parenthesised text of a subtree, e.g. "1+(1>2)" (outer parentheses left off).
std::string render(const Ast& ast, int node);

} // namespace bif::model::detail
