// Whether a map keeps a non-finite state non-finite: the property that lets an orbit diagram's
// fast loop (kernels/bif/study/map_iterates.h) test a chunk of iterates once, at its end, instead
// of at every iterate, when the study sets no bound. Shown from the formulas, not assumed: a value
// built from the state by +, -, *, negation, |.| and positive integer powers is infinite or NaN
// whenever one of the values it reads is (0 * inf and inf - inf are NaN), so if every state
// variable is read by such a formula, an iterate with a non-finite component is followed by
// another. Division (1 / inf = 0), functions (exp(-inf) = 0, tanh(inf) = 1) and branches can
// bring an orbit back from infinity and void the property.
#pragma once

#include "engine/symbolic/expr.h"

#include <vector>

namespace bif::codegen::detail {

// `next`: the map's N formulas for the next state, over State leaves 0..N-1.
bool nonfinite_persists(const sym::ExprPool& pool, const std::vector<sym::NodeId>& next);

} // namespace bif::codegen::detail
