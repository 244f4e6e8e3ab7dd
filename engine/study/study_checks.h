// Checks of a study's values that need no model: ranges, counts, tolerances, which sweep axes an
// analysis takes. resolve_study runs them first; the GUI may run them on every edit.
#pragma once

#include "engine/study/study.h"
#include "engine/study/study_problem.h"

namespace bif::study {

// Grids larger than this are refused (a result row per system would not fit in memory anyway).
inline constexpr double max_system_count = 1.0e12;

Problems check_study_values(const Study& study);

// The section of the active analysis, or nullptr for analyses without one (Lyapunov, trajectory).
const Section* active_section(const Study& study);
// The JSON path of the active analysis's settings block (its section is "analysis.section").
inline constexpr const char* analysis_path = "analysis";

} // namespace bif::study
