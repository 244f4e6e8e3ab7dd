// Stage 5 of the front end: what each logical line is, by XPPAUT's rules.
//
// Formula forms are recognised by the left side of the first `=`:
//   x'=f  dx/dt=f            ODE                 x(0)=1        initial value
//   f(a,b)=body              user function       x=f           fixed variable
//   !p=f                     derived parameter   x(t+1)=f      map (refused)
//   0=f                      algebraic constraint (refused)
// Anything else is a command known by its first letters: p(ar) n(umber) i(nit) g(lobal) au(x)
// se(t) and the refused ones (wiener, table, markov, bdry, solv, special, vector, volterra,
// options files, export, group). `"` lines are comments, `@` lines options.
#pragma once

#include "engine/model/declarations.h"
#include "engine/model/source_text.h"

#include <vector>

namespace bif::model::detail {

class DiagnosticSink;

Declarations classify_lines(const std::vector<LogicalLine>& lines, DiagnosticSink& sink);

} // namespace bif::model::detail
