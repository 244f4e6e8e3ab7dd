// Equilibria, equilibrium branches and curves of their special points as CSV, for `bifscope-cli run`. A `# `
// comment block (what ran, the notes, the study file), a header row, one row per equilibrium or branch point.
// Numbers are written shortest round-trip; eigenvalues sorted by decreasing real part, as re_k, im_k columns.
//   equilibria:   equilibrium, <states>, type, stable, unstable, complex_pairs, re_1, im_1, ...
//   continuation: branch, <parameter>, <states>, stable, unstable, type, label, first_lyapunov,
//                 arclength, re_1, im_1, ...
//   curves:       curve, kind (LP or H), <parameter>, <second parameter>, <states>, label, arclength
// `stable` is 1 or 0; `label` is empty or LP, BP, H, EP; first_lyapunov is empty except at H.
#pragma once

#include "engine/continuation/equilibrium_study_run.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cont {

void write_equilibrium_study_csv(std::ostream& out, const study::ResolvedEquilibriumStudy& study,
                                 const EquilibriumStudyOutcome& outcome);

// The comment block both this and an orbit study's CSV (orbit_study_csv.h) open with, each line
// behind "# ": "bifscope result", the analysis, `lines` (a count, the run's notes), the study as JSON.
void write_study_comments(std::ostream& out, const study::ResolvedEquilibriumStudy& study,
                          const std::vector<std::string>& lines);

} // namespace bif::cont
