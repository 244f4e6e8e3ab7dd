// How the trajectory inspector recomputes one system of a study: the studies it runs (plain C++, no
// Qt, so that the tests can check them directly).
//
// First the system alone with the study's own analysis and section, with the section time `t` and
// every quantity at the section recorded, so that each section point has its time. The trajectory
// study then integrates the same system from t0 with dense output over the window that ends at the
// last recorded section point: the previous section point to the last one, at most `max_intervals`
// intervals. Lyapunov studies have no section: their window starts after the transient.
#pragma once

#include "engine/study/resolved_study.h"
#include "engine/study/result.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bif::ui {

struct InspectionPlan {
    study::Study single; // the system alone: no sweep, its parameters and initial values
    std::optional<study::Study> section_study; // for section-based analyses
    std::size_t first_marked_row = 0;          // section rows before it only start the window
    std::vector<std::string> quantities;       // the recorded quantities of both runs, after "t"
    std::vector<std::string> notes;            // e.g. why a continuation system starts elsewhere
};

inline constexpr int max_inspected_intervals = 64;

InspectionPlan plan_inspection(const study::ResolvedStudy& study, std::size_t system);

// "k = 0.2513, b = 0.3": the swept values of one system.
std::string describe_system(const study::ResolvedStudy& study, std::size_t system);

// The trajectory over [t_from, t_to]: `samples` evenly spaced times plus the `extra` times inside it
// (the section points, so that they are trajectory samples too).
study::Study trajectory_study(const InspectionPlan& plan, double t_from, double t_to, int samples,
                              const std::vector<double>& extra);

// The window of the trajectory for a finished section run (system 0 of `section`), or for a study
// without sections; false when the section run recorded too little to draw.
bool trajectory_window(const study::ResolvedStudy& study, const InspectionPlan& plan,
                       const study::Result* section, double& t_from, double& t_to);

} // namespace bif::ui
