// `@ name=value` options: XPPAUT's names and the ones Bifscope uses as study defaults.
#pragma once

#include <string>
#include <string_view>

namespace bif::model::detail {

// XPPAUT 6.11 matches a written option name against its list in a fixed order and takes the
// first entry that the written name *starts with* (so `transient` is TRANS, `method` is METH, but
// `tot` is nothing). Returns the lower-case canonical name, or "" when XPPAUT knows no such option.
std::string canonical_option_name(std::string_view written);

// total dt t0 trans meth tol atol dtmin dtmax bound poimap poivar poipln poisgn poistop xp yp xlo
// xhi ylo yhi.
bool option_used_by_bifscope(std::string_view canonical);

} // namespace bif::model::detail
