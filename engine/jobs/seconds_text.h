// Durations in auto's notes: "0.47 s", "12 ms", "3.1 min". Two significant digits are all a
// prediction or a race's time deserves.
#pragma once

#include <string>

namespace bif::jobs {

std::string seconds_text(double seconds);

} // namespace bif::jobs
