// Continuation branches as a document keeps them: what the app drew over a diagram or a map (points,
// stability, special points with the hover's words) and the continuation study that computed them,
// so that a reopened document draws them again and "continue" can go on from its settings.
//
// In a study file they are one member beside the study's own keys:
//   "branches": {"version": 1, "overlays": [
//     {"name": "orbit of period 1", "kind": "branch", "parameter": "r", "states": ["x"],
//      "seed": {<the equilibrium or orbit study, as its own file writes it>},
//      "points": [{"parameter": 2.5, "state": [0.6], "stable": true, "label": "", "details": "..."},
//                 ...]}]}
// A curve's points also have "second" (its second parameter); a set of equilibria has no parameter.
// Numbers are written so that they read back bit for bit. Reading reports each faulty overlay with
// the JSON path of the value at fault and keeps the others; a document without "branches" has none.
#pragma once

#include "engine/study/equilibrium_study.h"
#include "engine/study/study_problem.h"

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bif::cont {

// The "version" this program writes; a larger one is read with a warning, unknown keys ignored.
inline constexpr int saved_branches_version = 1;

enum class SavedBranchKind {
    Branch, // one parameter: points at (parameter, state)
    Curve,  // two parameters: points at (parameter, second)
    Points  // equilibria at fixed parameters: points at a state
};

struct SavedBranchPoint {
    double parameter = 0.0;
    double second = std::numeric_limits<double>::quiet_NaN(); // curves only
    std::vector<double> state;
    bool stable = true;
    std::string label;   // LP, H, BP, PD, NS, EP, ..., or empty
    std::string details; // eigenvalues or multipliers and stability, as the hover words them
};

struct SavedBranch {
    std::string name;
    SavedBranchKind kind = SavedBranchKind::Branch;
    std::string parameter;
    std::string second_parameter;
    std::vector<std::string> states;
    std::vector<SavedBranchPoint> points;
    // The continuation study that computed the branch; none for a branch saved without it.
    std::optional<study::EquilibriumStudy> seed;
};

struct SavedBranchesReadResult {
    std::vector<SavedBranch> branches; // the readable ones, in the document's order
    study::Problems problems;          // paths from the document's root: "branches.overlays[1].points[3]"
};

// The document's JSON text with its "branches" member set to `branches` (removed when there are
// none), its other members as they were. Throws std::invalid_argument where the text is no JSON
// object.
std::string with_saved_branches(std::string_view document_json, const std::vector<SavedBranch>& branches);

// The branches of a document's JSON text. Text that is no JSON object gives no branches and no
// problem (the study reader reports it).
SavedBranchesReadResult read_saved_branches(std::string_view document_json);

const char* name_of(SavedBranchKind kind);

} // namespace bif::cont
