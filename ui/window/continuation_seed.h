// "Continue from here" on a bifurcation diagram: the orbit continuation study (engine/study/
// equilibrium_study.h) that starts at the diagram's clicked point. Its period k is the number of
// distinct section points the clicked system recorded (its detected period); its start is the
// recorded section point nearest the click where the diagram records every state, else the system's
// initial state settled by the diagram's transient; it is continued both ways over the diagram's
// swept range. Maps and stroboscopic sections (forced flows) only: an event section's return map
// has no fixed period to start from.
#pragma once

#include "engine/study/equilibrium_study.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result.h"
#include "ui/plot/branch_overlay.h"

#include <QString>
#include <optional>

namespace bif::ui {

// Section points of one system closer than this, relative to max(1, |value|), are one point.
inline constexpr double same_section_point = 1e-5;
// More distinct section points than this: no period (chaos, quasi-periodicity, a long transient).
inline constexpr int max_continued_period = 32;

// The study, or none with `why` in words.
std::optional<study::EquilibriumStudy> continuation_from_diagram(const study::ResolvedStudy& diagram,
                                                                 const study::Result& result,
                                                                 std::size_t system, const QString& quantity,
                                                                 double y, QString& why);

// "Continue this branch": the continuation study that computed `branch` (its seed), started again at
// the branch's last point (its state and parameter value), over the seed's range and directions. A
// branch in one parameter whose seed is a continuation of equilibria or an orbit only; none with
// `why` for others (curves, sets of equilibria, a branch saved without its study).
std::optional<study::EquilibriumStudy> continuation_from_branch(const plot::BranchOverlay& branch,
                                                                QString& why);

// The number of distinct values (within same_section_point) among the system's recorded values of
// `column`; 0 when it recorded none.
int detected_period(const study::Result& result, std::size_t system, std::size_t column);

} // namespace bif::ui
