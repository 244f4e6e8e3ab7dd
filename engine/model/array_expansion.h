// Stage 2 of the front end: XPPAUT's array shorthand, expanded textually.
//
//   x[1..3]'=-x[j]+[j]*x[j-1]     one line per j = 1, 2, 3: x1'=-x1+1*x0, x2'=..., x3'=...
//   init x[3..1]=0                ranges may count down (the lines come out as j = 3, 2, 1)
//   %[1..2]                       block form: every line up to the closing `%` is repeated
//   u[j]'=v[j]                    for each j, the whole block per j (u1, v1, u2, v2)
//   %
//
// A range [lo..hi] stands for the current j; any other bracket holds an integer formula in j
// (+ - * / and parentheses) and is replaced by its value. Bounds are integer numbers: XPPAUT
// reads a name there as 0. Substituted characters keep the position of their `[`.
#pragma once

#include "engine/model/source_text.h"

#include <vector>

namespace bif::model::detail {

class DiagnosticSink;

std::vector<LogicalLine> expand_arrays(const std::vector<LogicalLine>& lines, DiagnosticSink& sink);

// Bounds that keep a hostile file from expanding into millions of lines.
constexpr long kMaxArrayLength = 10000;
constexpr std::size_t kMaxExpandedLines = 200000;

} // namespace bif::model::detail
