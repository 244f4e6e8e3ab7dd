// Joins text pieces by appending them in order. Used instead of chains of `"(" + s + ")"`: those
// are no faster to read, and GCC 12 reports a false -Wrestrict for `literal + temporary string`.
#pragma once

#include <string>
#include <string_view>

namespace bif::codegen::detail {

template <class... Parts>
std::string concat(const Parts&... parts) {
    std::string out;
    (out.append(std::string_view(parts)), ...);
    return out;
}

} // namespace bif::codegen::detail
