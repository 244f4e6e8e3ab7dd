// Stage 4 of the front end: recursive descent over the tokens of one formula.
//
// Two grammars read the same tokens. XPPAUT's (what XPPAUT 6.11 computes, and what Bifscope
// follows):
//   level 7  ^ ** > < >= <= == !=        all left-associative, bind tightest
//   level 6  * / &  and unary minus
//   level 4  + - |
// and ordinary mathematics (comparisons below + -, ^ right-associative above unary minus). The
// front end parses with both and warns where the trees differ, e.g. `1+1>2` is 1+(1>2) = 1.
// Unary minus after an operator (x*-y, x^-2) is a syntax error in 6.11; Bifscope accepts it.
#pragma once

#include "engine/model/ast.h"
#include "engine/model/lexer.h"

#include <optional>

namespace bif::model::detail {

class DiagnosticSink;

enum class Grammar { Xppaut, Ordinary };

// Parentheses, calls and unary minus may nest this deep; a tree (long chains such as a+b+c+...
// included) may be this high.
constexpr int kMaxNesting = 200;
constexpr int kMaxTreeHeight = 1000;

// Parses the whole of `formula` (blanks already removed or not: the lexer skips them) with
// XPPAUT's grammar, reporting syntax errors; then, if it parsed, with ordinary precedence, and
// warns (code W-precedence) where the two readings differ.
std::optional<Ast> parse_formula(const LogicalLine& formula, DiagnosticSink& sink);

// One grammar only, no precedence check; sink may be null (no diagnostics).
std::optional<Ast> parse_tokens(const std::vector<Token>& tokens, const LogicalLine& formula, Grammar grammar,
                                DiagnosticSink* sink);

} // namespace bif::model::detail
