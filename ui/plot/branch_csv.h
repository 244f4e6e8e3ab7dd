// Continuation overlays as CSV: one row per point (overlay, its kind, the point's index, the
// parameter(s), every state, stability, the special point's label), the states' columns the union of
// the overlays' names in order of appearance.
#pragma once

#include "ui/plot/branch_overlay.h"

#include <QByteArray>

namespace bif::plot {

QByteArray branch_csv(const Overlays& overlays);

} // namespace bif::plot
