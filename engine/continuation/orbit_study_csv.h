// An orbit_continuation study's result as CSV: a comment block (the analysis, the run's notes and
// the study itself as JSON, each line behind "# "), then the branch as write_orbit_branch_csv
// writes it (orbit_csv.h): the parameter, the orbit's point, period, stability, label (LP, PD, NS,
// BP, EP), arclength and the Floquet multipliers. An orbit_curves study writes its curves instead:
//   curve, kind (LP, PD or NS), <parameter>, <second parameter>, <unknowns>, period, stable,
//   unstable, label, arclength, mu_abs_1, mu_re_1, mu_im_1, ...
// with label empty, EP, or a codimension-two point (R1, R2, R3, R4, LPPD, LPNS, PDNS; orbit_curve.h).
#pragma once

#include "engine/continuation/orbit_study_run.h"

#include <iosfwd>

namespace bif::cont {

void write_orbit_study_csv(std::ostream& out, const study::ResolvedEquilibriumStudy& study,
                           const OrbitStudyOutcome& outcome);

} // namespace bif::cont
