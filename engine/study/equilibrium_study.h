// Equilibrium studies: the equilibria of a flow at fixed parameters, the continuation of equilibria
// in one parameter, the curves of their fold and Hopf points in two, the continuation of a
// periodic orbit in one parameter and the curves of its fold, flip and Neimark-Sacker points in two.
// Study files with `"analysis": {"kind": "equilibria" | "continuation" | "curves" |
// "orbit_continuation" | "orbit_curves"}`
// (resources/studies/README.md, "Equilibria and continuation"). They share the top-level keys of an
// ensemble study (bifscope_study, title, description, model, parameters) but no sweep, solver or
// backend: they run on the CPU through engine/continuation, not through the ensemble programs.
#pragma once

#include "engine/model/model.h"
#include "engine/study/study.h"
#include "engine/study/study_problem.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bif::study {

enum class EquilibriumAnalysis { Equilibria, Continuation, Curves, OrbitContinuation, OrbitCurves };
enum class ContinuationDirection { Up, Down, Both };
// The period map whose fixed point is the orbit (engine/continuation/orbit_problem.h).
enum class OrbitKind { Map, Stroboscopic, Autonomous };

// orbit_continuation: the orbit near `start`, a fixed point of its period map.
struct OrbitSpec {
    OrbitKind kind = OrbitKind::Map;
    int k = 1;                  // map: iterates; stroboscopic: forcing periods (not autonomous)
    std::string forcing_period; // stroboscopic: a formula of the parameters, e.g. "2*pi/omega"
    double period = 0.0;        // autonomous: the guess of the period T (model time)
    int segments = 4;           // stroboscopic: per forcing period; autonomous: over the orbit
    // Applications of the period map (k iterates, k forcing periods, one period guess) from the
    // start before Newton, to settle onto an attractor first.
    int transient_periods = 0;
    double rtol = 1e-10, atol = 1e-12; // flows: the integration's tolerances
};

struct StateRange {
    std::string state; // a state name, or "*" for every state not named
    double lower = 0.0;
    double upper = 0.0;
};

struct EquilibriumStudy {
    int schema_version = current_schema_version;
    std::string title;
    std::string description;
    ModelSource model;
    std::vector<std::pair<std::string, double>> parameters; // overrides of the model's `par` values
    EquilibriumAnalysis analysis = EquilibriumAnalysis::Equilibria;

    // The search for equilibria (equilibria; continuation without a start state).
    std::vector<StateRange> box;
    int starts = 1000;

    // Continuation of every equilibrium found (or of the one near `start`) in `parameter`, from its
    // value (the model's or `parameters`') within [from, to].
    std::string parameter;
    double from = 0.0;
    double to = 0.0;
    std::vector<std::pair<std::string, double>> start; // state values; empty: search the box
    ContinuationDirection direction = ContinuationDirection::Both;
    double step = 0.01;
    double min_step = 1e-7;
    double max_step = 0.1;
    int max_points = 500; // per direction and branch

    // Curves: every fold and Hopf point of the branches above (orbit_curves: every LP, PD and NS
    // point of the orbit's branch), continued in (parameter, second_parameter) within
    // [from, to] x [second_from, second_to].
    std::string second_parameter;
    double second_from = 0.0;
    double second_to = 0.0;

    OrbitSpec orbit; // orbit_continuation and orbit_curves (needs `start`; no box)

    bool is_continuation() const { return analysis != EquilibriumAnalysis::Equilibria; }
    bool is_orbit() const {
        return analysis == EquilibriumAnalysis::OrbitContinuation ||
               analysis == EquilibriumAnalysis::OrbitCurves;
    }
    bool has_second_parameter() const {
        return analysis == EquilibriumAnalysis::Curves || analysis == EquilibriumAnalysis::OrbitCurves;
    }
};

// The analysis kind a study file's text names when it is an equilibrium study; nullopt for any
// other text (an ensemble study, or text that is not JSON: its reader reports that).
std::optional<EquilibriumAnalysis> equilibrium_analysis_of(std::string_view json_text);

struct EquilibriumStudyReadResult {
    std::optional<EquilibriumStudy> study;
    Problems problems;
};
EquilibriumStudyReadResult read_equilibrium_study_json(std::string_view json_text);
std::string write_equilibrium_study_json(const EquilibriumStudy& study);

// A study checked against its model: names turned into indices, the box complete.
struct ResolvedEquilibriumStudy {
    EquilibriumStudy study;
    std::shared_ptr<const model::Model> model;
    std::vector<double> parameters;            // the P user parameters after the overrides
    std::vector<double> lower, upper;          // the box, per state
    int parameter = -1;                        // continuation: the user parameter's index
    int second_parameter = -1;                 // curves, orbit_curves: the second user parameter's index
    std::vector<double> start;                 // continuation: the start state, or empty (search the box)
    std::optional<sym::NodeId> forcing_period; // stroboscopic orbits: the formula, in model->pool
};

struct EquilibriumResolveResult {
    std::shared_ptr<const ResolvedEquilibriumStudy> resolved; // set exactly when problems hold no error
    Problems problems;
};
EquilibriumResolveResult resolve_equilibrium_study(const EquilibriumStudy& study,
                                                   const std::string& base_directory);
// Reads and resolves a study file (the model path relative to its folder).
EquilibriumResolveResult load_equilibrium_study_file(const std::string& path);

const char* name_of(EquilibriumAnalysis v);
const char* name_of(ContinuationDirection v);
const char* name_of(OrbitKind v);

} // namespace bif::study
