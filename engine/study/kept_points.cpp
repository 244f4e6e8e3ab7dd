#include "engine/study/kept_points.h"

namespace bif::study {

Result download_kept_points(const Result& result) {
    Result r = result;
    if (!result.kept_points) return r;
    r.kept_points.reset();
    r.points.rows_per_system = 0;
    r.points.rows_filled.clear();
    r.points.values.clear();
    result.kept_points->download(r.points);
    return r;
}

} // namespace bif::study
