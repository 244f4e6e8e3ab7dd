// A study checked against its model: names resolved to slots, study formulas parsed into the
// model's expression pool, the sweep grid built, and the code generation request the backends need.
// Immutable once built and shared (std::shared_ptr<const ResolvedStudy>) between the job that runs
// it and the GUI that shows it.
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/model/model.h"
#include "engine/study/study.h"
#include "engine/study/study_problem.h"
#include "engine/study/sweep_grid.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bif::study {

struct ResolvedAxis {
    SweepTarget target = SweepTarget::Parameter;
    std::string name;       // as the model writes it
    std::uint32_t slot = 0; // user parameter slot or state index
};

// One recorded column or accessory: its display name and where the generated model computes it.
struct StudyQuantity {
    std::string name;
    int observable = -1; // index into the generated model's observables(t, y, p, o)
    IntervalValue value = IntervalValue::AtSection;
    Reduction reduce = Reduction::Max;
    ReductionDomain over = ReductionDomain::Steps;
};

// Where the study's formulas went in the generated model. Observables are evaluated by
// Model::observables(t, y, p, o); study events follow the model's own events in Model::events.
struct StudyFormulas {
    std::vector<sym::NodeId> observables; // codegen::Request::observables, in this order
    std::vector<codegen::StudyEvent> study_events;
    // Stroboscopic section: the observable holding the period. It depends on the parameters only,
    // so evaluating it once per system at (t0, y0) gives that system's period.
    int period_observable = -1;
    sym::NodeId period = 0; // the same formula, for evaluation on the host
    // Event section: its index among the generated model's events.
    int section_event = -1;
    std::vector<StudyQuantity> recorded;    // bifurcation record, trajectory record
    std::vector<StudyQuantity> accessories; // map accessories
    // Orbit refinement (BifurcationSettings::orbits): the recorded column that holds state i at the
    // section, for every state i; empty without refinement.
    std::vector<int> orbit_guess_columns;
};

// A phase plane's names as slots: the axis states, every state's value off the axes, the slider.
struct ResolvedPhasePlane {
    std::uint32_t x = 0, y = 1; // state indices of the axes
    std::vector<double> state;  // N values: the fixed ones, the initial values elsewhere
    int slider = -1;            // user parameter slot, -1 for none
};

struct ResolvedStudy {
    Study study;                // as read; defaults filled in
    std::string base_directory; // the study file's folder (relative model paths start there)
    std::shared_ptr<const model::Model> model;
    std::vector<double> parameters;    // the P user parameters after the study's overrides
    std::vector<double> initial_state; // the N initial values after the study's overrides
    std::vector<ResolvedAxis> axes;    // one per study.sweep entry
    SweepGrid grid;
    std::vector<double> rtol, atol; // per state
    StudyFormulas formulas;
    ResolvedPhasePlane phase_plane; // for AnalysisKind::PhasePlane
    // For a block of a bigger run (a progressive pass): the bigger run's system count, so that a
    // backend sizes its code for the run rather than for each block (one GPU compile for all passes).
    // 0: this study is the whole run.
    std::size_t run_system_count = 0;

    // Grid points, doubled for a continuation sweep. A continuation runs one chain per row (a grid
    // point of the axes after the first), each chain walking the first axis up, then down; the
    // chains follow each other: chain r holds systems [r*L, (r+1)*L), L = chain_length() = 2*n0,
    // where system r*L + i sits at first-axis index i (up) and r*L + n0 + i at n0 - 1 - i (down).
    // With one axis that is the single chain: systems [0, n) up, [n, 2n) down.
    std::size_t system_count() const;
    std::size_t grid_point(std::size_t system) const;
    bool is_continuation() const;
    // Continuation only: the chains (rows) and the systems of each (twice the first axis's count).
    std::size_t chain_count() const;
    std::size_t chain_length() const;
    // Whether a continuation system runs down the first axis (false for every other study).
    bool runs_down(std::size_t system) const;

    // One system's user parameters p[0..P) and initial state y0[0..N) (the sweep applied). Derived
    // parameters are not filled: the generated model's complete_parameters does that.
    void system_values(std::size_t system, double* parameters_out, double* initial_out) const;
    // All P + D parameter slots of one system, derived ones evaluated on the host.
    std::vector<double> parameter_slots(std::size_t system) const;

    // The request for engine/codegen; `model` must outlive the returned request (it points into it).
    codegen::Request codegen_request(codegen::Precision precision, std::string type_name = "BifModel") const;
    // The precision to run in: the study's choice, or for "auto" double on the CPU and float on a GPU
    // when every tolerance is at least 1e-6 (what float can honour).
    codegen::Precision precision_for(bool gpu) const;
};

struct ResolveResult {
    std::shared_ptr<const ResolvedStudy> resolved; // set exactly when problems hold no error
    Problems problems;
};

// Checks the values (check_study_values), reads and parses the model (a path relative to
// base_directory, or the inline text), then checks every name and formula against it.
ResolveResult resolve_study(const Study& study, const std::string& base_directory);

// Reads, checks and resolves a study file in one call (the model path relative to its folder).
ResolveResult load_study_file(const std::string& path);

} // namespace bif::study
