// Rewrites an XPPAUT formula (lower case, no blanks) into muparser syntax.
//
//   a**b                 -> a^b
//   if(c)then(a)else(b)  -> ((c)?(a):(b))
//   &  |                 -> &&  ||
//   log(  ln(            -> ln(   (both natural logarithms in XPPAUT)
// Everything else is already valid muparser text; the XPPAUT functions muparser lacks (heav,
// sign with sign(0)=0, flr, mod, atan2, not, ceil, pow, erf, erfc, besselj, bessely, lgamma) and the constant pi are defined
// on the parser by muparser_reference.cpp. XPPAUT's own operator precedence (comparisons binding
// like ^, left-associative ^) is NOT emulated: models checked with this reference must
// parenthesise comparisons and powers, as the bundled models do.
#pragma once

#include <optional>
#include <string>

namespace bif::testsupport {

// Returns nothing, with a message in *error, when an if/then/else is malformed.
std::optional<std::string> xpp_to_muparser(const std::string& formula, std::string* error);

} // namespace bif::testsupport
