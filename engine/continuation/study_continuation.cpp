#include "engine/continuation/study_continuation.h"

namespace bif::cont {

ContinuationSettings continuation_settings(const study::EquilibriumStudy& s, int unknowns, int direction,
                                           const std::atomic<bool>* cancel) {
    ContinuationSettings c;
    c.direction = direction;
    c.initial_step = s.step;
    c.min_step = s.min_step;
    c.max_step = s.max_step;
    c.max_points = s.max_points;
    c.box = {{unknowns, s.from, s.to}};
    c.cancel = cancel;
    return c;
}

} // namespace bif::cont
