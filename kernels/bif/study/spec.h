// What one ensemble run asks of every system, independent of the model type: the host fills a
// StudySpec, and make_block (bif/study/block.h) turns it into the Block of a concrete model. The
// arrays it points to live where the code that calls make_block runs (host memory for the CPU
// backend; device memory for a set-up kernel). Everything is plain data with fixed-size fields so
// that the same definition serves the host binary and the run-time compiled entry code.
#pragma once

#include "bif/config.h"

namespace bif::ensemble {

// Bumped whenever StudySpec, View or the entry functions change shape; the CPU backend refuses a
// compiled module built against another version (a stale cache entry cannot be misread).
inline constexpr int abi_version = 5;

enum AnalysisCode : int {
    analysis_bifurcation = 0,
    analysis_lyapunov = 1,
    analysis_map = 2,
    analysis_basins = 3,
    analysis_trajectory = 4,
};

enum SectionCode : int {
    section_none = 0,
    section_stroboscopic = 1, // t0 + n T, T an observable evaluated once per system
    section_event = 2,        // a study event crossing zero in its direction
};

// How a recorded quantity reads over one section interval (bifurcation `record`).
enum RecordCode : int {
    record_at_section = 0,
    record_max_between = 1,
    record_min_between = 2,
};

// Accessory reductions (map `accessories`).
enum ReduceCode : int { reduce_max = 0, reduce_min = 1, reduce_mean = 2 };
enum OverCode : int { over_sections = 0, over_steps = 1 };

// Per-system outcome, numerically equal to bif::study::SystemStatus (checked on the host).
enum OutcomeCode : int {
    outcome_not_run = 0,
    outcome_ok = 1,
    outcome_stopped_by_model = 2,
    outcome_step_budget_exceeded = 3,
    outcome_step_size_underflow = 4,
    outcome_non_finite = 5,
    outcome_section_not_reached = 6,
    outcome_invalid_setup = 7,
    outcome_escaped = 8,           // beyond the solver's bound: an outcome (a basin's escape), not a failure
    outcome_events_accumulate = 9, // through an event's surface right after its reset turned back (Zeno)
};

BIF_HD constexpr bool is_failure_outcome(int outcome) {
    return outcome != outcome_not_run && outcome != outcome_ok && outcome != outcome_stopped_by_model &&
           outcome != outcome_escaped;
}

inline constexpr int max_axes = 4;

struct StudySpec {
    int analysis = analysis_bifurcation;

    // solver (bif::SolverSettings); rtol and atol have one entry per state
    const double* rtol = nullptr;
    const double* atol = nullptr;
    double initial_step = 0.0; // fixed step for rk4
    double min_step = 0.0;
    double max_step = 0.0;
    double max_growth = 5.0;
    double max_shrink = 0.1;
    long long max_steps = 100000000; // attempted steps per system over the whole run
    int adaptive = 1;
    double bound = 0.0; // > 0: a state beyond it ends the system (outcome_escaped)

    // the systems: shared values once, swept values per system through the View
    double t0 = 0.0;
    const double* parameters = nullptr; // the user parameters, parameter_count of them
    int parameter_count = 0;
    const double* initial = nullptr; // the N initial values
    int axis_count = 0;
    int axis_is_state[max_axes] = {}; // 0: parameter slot, 1: state index
    int axis_slot[max_axes] = {};

    // sections (bifurcation, map, basins)
    int section_kind = section_none;
    int section_event = -1;     // index among the model's events (study events follow its own)
    int period_observable = -1; // stroboscopic: the observable that holds T
    double max_time_between = 0.0;
    int transient_sections = 0;
    int recorded_sections = 1;

    // bifurcation: the recorded observables and how each reads over an interval
    int record_count = 0;
    const int* record_observable = nullptr;
    const int* record_mode = nullptr;

    // Lyapunov (analysis_lyapunov; map with map_exponent)
    int lyapunov_spectrum = 0; // 0: the largest exponent, 1: all N
    double transient_time = 0.0;
    double averaging_time = 0.0;
    double renormalization_interval = 0.0; // map: 0 renormalises at each section point
    double convergence_tolerance = 0.0;

    // map and basins
    int detect_period = 0;
    double period_tolerance = 1e-6;
    int max_period = 16;
    int map_exponent = 0;
    int accessory_count = 0;
    const int* accessory_observable = nullptr;
    const int* accessory_reduce = nullptr;
    const int* accessory_over = nullptr;
    int model_event_count = 0; // the model's own events: the first of the events
    int count_events = 0;

    // trajectory: output times in View::times
    int output_count = 0;
    // and up to event_rows more rows, one at each firing of the model's events in output_events
    // (bit k: event k, XPPAUT's out_put), holding the state after the resets for the events in
    // output_after_resets, else before them
    int event_rows = 0;
    unsigned output_events = 0;
    unsigned output_after_resets = 0;
};

// Some recorded quantity is a maximum or minimum between sections (Block::record_extrema).
inline BIF_HD bool records_extrema(const StudySpec& s) {
    bool any = false;
    for (int j = 0; j < s.record_count; ++j)
        any = any || s.record_mode[j] != record_at_section;
    return any;
}

// Some accessory reduces over steps (Block::step_accessories).
inline BIF_HD bool has_step_accessories(const StudySpec& s) {
    bool any = false;
    for (int j = 0; j < s.accessory_count; ++j)
        any = any || s.accessory_over[j] == over_steps;
    return any;
}

// Whether the section program watches every step.
inline BIF_HD bool observes_steps(const StudySpec& s) {
    return records_extrema(s) || has_step_accessories(s);
}

} // namespace bif::ensemble
