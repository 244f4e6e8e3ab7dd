// An orbit_continuation study's result as CSV: a comment block (the analysis, the run's notes and
// the study itself as JSON, each line behind "# "), then the branch as write_orbit_branch_csv
// writes it (orbit_csv.h): the parameter, the orbit's point, period, stability, label (LP, PD, NS,
// BP, EP), arclength and the Floquet multipliers.
#pragma once

#include "engine/continuation/orbit_study_run.h"

#include <iosfwd>

namespace bif::cont {

void write_orbit_study_csv(std::ostream& out, const study::ResolvedEquilibriumStudy& study,
                           const OrbitStudyOutcome& outcome);

} // namespace bif::cont
