// A phase plane's settings from the model's own XPPAUT plot options: the axes from `@ xp=, yp=`
// when they name states, the window from `@ xlo=, xhi=, ylo=, yhi=` (XPPAUT's defaults -2..20 and
// -1..1 are not taken: a phase plane starts on [-3, 3] x [-3, 3] without them).
#pragma once

#include "engine/model/model.h"
#include "engine/study/study.h"

namespace bif::analysis {

study::PhasePlaneSettings phase_plane_defaults(const model::Model& model);

} // namespace bif::analysis
