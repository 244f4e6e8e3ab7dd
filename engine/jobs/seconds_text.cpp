#include "engine/jobs/seconds_text.h"

#include <cstdio>

namespace bif::jobs {

std::string seconds_text(double seconds) {
    char text[32];
    if (seconds < 0.1)
        std::snprintf(text, sizeof text, "%.2g ms", seconds * 1e3);
    else if (seconds < 120)
        std::snprintf(text, sizeof text, "%.2g s", seconds);
    else
        std::snprintf(text, sizeof text, "%.2g min", seconds / 60);
    return text;
}

} // namespace bif::jobs
