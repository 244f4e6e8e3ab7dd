// `bifscope-cli run STUDY.json` for equilibrium studies (`"analysis": {"kind": "equilibria" |
// "continuation"}`, engine/study/equilibrium_study.h): they run on the CPU through
// engine/continuation, not as an ensemble job, and write CSV (engine/continuation/equilibrium_csv.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cli {

// Whether the first non-option argument names a readable equilibrium study.
bool names_equilibrium_study(const std::vector<std::string>& args);

// STUDY.json [--out result.csv] [--check] [--quiet]; returns the process exit status.
int run_equilibrium_study(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace bif::cli
