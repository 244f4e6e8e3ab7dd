// The functions and constants a formula may use, and the XPPAUT functions Bifscope refuses.
#pragma once

#include "engine/symbolic/expr.h"

#include <string_view>

namespace bif::model::detail {

struct BuiltinFunction {
    const char* name; // lower case, as the user may write it (any case)
    sym::Op op;
    int arity;
};

// sin cos tan asin acos atan atan2 sinh cosh tanh exp ln log log10 sqrt abs heav sign flr mod
// min max not erf erfc lgamma besselj bessely, and the extensions ceil pow. nullptr when the name is none of
// them.
const BuiltinFunction* find_builtin(std::string_view lower_name);

struct RefusedFunction {
    const char* name;
    const char* code;
    const char* what; // "random numbers", ...
};

// XPPAUT functions that Bifscope does not support yet (delay, ran, normal, besseli, besselk, del_shft).
const RefusedFunction* find_refused_function(std::string_view lower_name);

// Names that cannot be defined: t, pi, the function names above, if/then/else, sum and shift.
bool is_reserved_name(std::string_view lower_name);

} // namespace bif::model::detail
