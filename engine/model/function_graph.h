// Which user functions are recursive: on a cycle of the call graph (a function calling itself,
// directly or through others). Bifscope inlines user functions, so recursion is refused.
#pragma once

#include <vector>

namespace bif::model::detail {

// calls[f] lists the functions f's body calls. Returns, for each function, whether it is on a cycle.
std::vector<bool> functions_on_cycles(const std::vector<std::vector<std::size_t>>& calls);

} // namespace bif::model::detail
