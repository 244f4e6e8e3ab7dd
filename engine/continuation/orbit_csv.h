// An orbit branch as CSV: a header row, then one row per point in branch order:
//   <parameter>, <unknowns: the orbit's point, then T for an autonomous flow>, period, stable,
//   unstable, label, arclength, mu_abs_1, mu_re_1, mu_im_1, ...
// `stable` is 1 or 0, `unstable` the multipliers outside the unit circle, `label` empty or LP, BP,
// PD, NS, EP. Multipliers (the trivial one of an autonomous flow left out) by decreasing modulus;
// mu_abs is written from the log-modulus, so it stays exact where mu_re underflows.
#pragma once

#include "engine/continuation/orbit_branch.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cont {

// `unknown_names` names the unknowns' columns (the model's states, then "T" where there is one).
void write_orbit_branch_csv(std::ostream& out, const OrbitBranch& branch, const std::string& parameter_name,
                            const std::vector<std::string>& unknown_names);

// The columns a branch point and a curve point (orbit_study_csv.h) both write after their
// parameters, each behind a comma: the unknowns, period, stable, unstable, label, arclength and
// `multipliers` triples mu_abs, mu_re, mu_im (empty past the point's own multipliers).
void write_orbit_columns_header(std::ostream& out, const std::vector<std::string>& unknown_names,
                                std::size_t multipliers);
void write_orbit_columns(std::ostream& out, const std::vector<double>& unknowns, double period,
                         const OrbitStability& stability, const std::string& label, double arclength,
                         std::size_t multipliers);

// Shortest round-trip text of a double.
std::string csv_number(double v);

} // namespace bif::cont
