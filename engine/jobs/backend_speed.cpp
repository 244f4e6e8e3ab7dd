#include "engine/jobs/backend_speed.h"

#include <algorithm>
#include <cmath>

namespace bif::jobs {

namespace {

bool finite_at_least(double v, double least) {
    return std::isfinite(v) && v >= least;
}

} // namespace

bool BackendSpeed::plausible() const {
    return finite_at_least(fixed_seconds, 0) && finite_at_least(compile_seconds, 0) &&
           finite_at_least(host, 0) && finite_at_least(single, 0) && single > 0 &&
           finite_at_least(per_system, 0) && per_system > 0 && per_system <= single * 1.5;
}

double predicted_seconds(const BackendSpeed& speed, const SpeedInputs& in) {
    double per_system = speed.per_system;
    // A CPU given fewer threads than it was measured with fills up sooner.
    if (in.threads != 0 && speed.threads != 0)
        per_system *= double(speed.threads) / double(std::min(in.threads, speed.threads));
    // A GPU runs fewer of a heavier model's systems side by side (more registers per thread).
    if (in.lanes != 0 && speed.lanes != 0 && in.lanes < speed.lanes)
        per_system *= double(speed.lanes) / double(in.lanes);
    const double heaviest = std::max(in.work, in.heaviest);
    const double run = std::max(heaviest * speed.single, in.work * double(in.parallel) * per_system);
    const double compile = in.compiles ? speed.compile_seconds * std::max(1.0, in.compile_scale) : 0.0;
    return speed.fixed_seconds + compile + double(in.parallel) * speed.host + run;
}

} // namespace bif::jobs
