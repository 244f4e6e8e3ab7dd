// A study: everything that defines one ensemble run, as the user (or the GUI) writes it.
//
// Plain values with names, no resolved slots: engine/study/resolved_study.h checks a Study against
// its model and turns names into slots and formulas into expression nodes. A Study is read from and
// written to the versioned JSON study file (engine/study/study_json.h); every field has a default, so
// a file only needs what differs.
//
// Only the settings block of `analysis` is used and written; the others keep their defaults (the GUI
// may keep them while the user switches analyses).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bif::study {

// The `"bifscope_study": N` value this program writes. Files with a larger number are read with a
// warning, ignoring what this version does not know.
inline constexpr int current_schema_version = 1;

// PhasePlane is drawn on the host (engine/analysis/phase_plane_*.h), never run as an ensemble.
enum class AnalysisKind { Bifurcation, Lyapunov, ParameterMap, Basins, Trajectory, PhasePlane };
enum class SweepTarget { Parameter, InitialValue };
enum class SweepScale { Linear, Log };
// Iteration steps a map (model kind map) one iterate per unit time; it is the only method for maps.
enum class Method { Rk4, Rkck45, Dopri5, Rkc, Rosenbrock23, Rodas4, Iteration };
enum class PrecisionChoice { Auto, Float, Double };
enum class BackendChoice { Auto, Cpu, Cuda };
enum class SectionKind { Stroboscopic, Event };
enum class CrossingDirection { Rising, Falling, Both }; // - to +, + to -, either
// Which value of a recorded quantity one row holds: its value at the section point, or its maximum or
// minimum over the interval that ends at that section point.
enum class IntervalValue { AtSection, MaxBetween, MinBetween };
enum class Reduction { Max, Min, Mean };
// What an accessory reduces over: the section points of the recorded phase, or every accepted step
// (and section point) of the recorded phase.
enum class ReductionDomain { Sections, Steps };
enum class LyapunovMode { Largest, Spectrum };

// Exactly one of the two is set: a path (relative paths are relative to the study file's folder) or
// the model text itself.
struct ModelSource {
    std::string path;
    std::string text;
};

// One axis of the sweep grid. Values: linear from + (to-from)*i/(count-1); log from*(to/from)^(i/(count-1));
// count 1 gives `from`. Grid order: see engine/study/sweep_grid.h.
struct SweepAxis {
    SweepTarget target = SweepTarget::Parameter;
    std::string name; // a user parameter or a state variable of the model
    double from = 0.0;
    double to = 0.0;
    int count = 1;
    SweepScale scale = SweepScale::Linear;
};

// A Poincaré section: the time points at which the analyses sample the trajectory.
struct Section {
    SectionKind kind = SectionKind::Stroboscopic;
    std::string period;    // stroboscopic: a formula of the parameters, e.g. "2*pi/omega"
    std::string condition; // event: the section is where this formula crosses zero
    CrossingDirection direction = CrossingDirection::Rising;
    // Event sections: a system that goes this long without a crossing stops with status
    // SectionNotReached (an equilibrium never crosses). 0: only the step budget limits it.
    double max_time_between = 0.0;
};

struct RecordedQuantity {
    std::string expression;
    std::string name; // column name; empty: the expression text
    IntervalValue value = IntervalValue::AtSection;
};

// The diagram's periodic orbits refined after it ran (stroboscopic sections of a flow): per system,
// the period of its recorded section points (as PeriodDetection, over every recorded column), then
// Newton on the period-p stroboscopic map from its last section point with the monodromy from the
// variational equations, and the orbit's Floquet multipliers (kernels/bif/study/orbit_refine.h).
// Every state variable must be recorded at the section: the last row is the guess.
struct OrbitRefinementSettings {
    bool refine = false;
    int max_period = 8;             // periods above it (or none found) are not refined
    double period_tolerance = 1e-6; // section points closer than this (relative to 1 + |value|) match
    int max_iterations = 8;         // Newton iterations at most
    double tolerance = 1e-9;        // converged: Newton step |dx|_inf <= tolerance (1 + |x|_inf)
};

// Bifurcation diagram over one parameter: per system, `transient_sections` section points are
// discarded and the next `recorded_sections` recorded.
struct BifurcationSettings {
    Section section;
    int transient_sections = 0;
    int recorded_sections = 1;
    std::vector<RecordedQuantity> record; // empty: every state variable at the section
    // Each parameter value starts from its neighbour's final state; the sweep runs up, then down.
    bool continuation = false;
    OrbitRefinementSettings orbits;
};

// Lyapunov exponents of the flow, per unit time (not per section period).
struct LyapunovSettings {
    LyapunovMode mode = LyapunovMode::Largest;
    double transient_time = 0.0;    // integrated and discarded first
    double averaging_time = 1000.0; // the exponents average over this much time at most
    double renormalization_interval =
        1.0; // tangent vectors are renormalised (and re-orthogonalised) this often
    // Stop averaging early when every exponent's running mean changed by less than this over the last
    // tenth of the time averaged so far; 0: always average the whole averaging_time.
    double convergence_tolerance = 0.0;
};

struct PeriodDetection {
    double tolerance = 1e-6; // section points closer than this (max norm, relative to 1 + |value|) match
    int max_period = 16;     // periods above this are reported as 0 (no period found)
};

// A scalar per system computed over the recorded phase, e.g. the maximum of y1 - 1.
struct Accessory {
    std::string name; // column name; empty: the expression text
    std::string expression;
    Reduction reduce = Reduction::Max;
    ReductionDomain over = ReductionDomain::Steps;
};

// Two-parameter map: per grid point, features of the attractor after the transient.
struct ParameterMapSettings {
    Section section;
    int transient_sections = 0;
    int recorded_sections = 1;
    bool detect_period = true;
    PeriodDetection period;
    bool largest_exponent = false;
    double renormalization_interval = 0.0; // 0: once per section point
    std::vector<Accessory> accessories;
    bool count_events = false; // crossings of each of the model's own events during the recorded phase
};

// Basins of attraction over two initial values: each system's attractor gets a label; attractors
// match when their periods agree and their section points agree within the tolerance.
struct BasinSettings {
    Section section;
    int transient_sections = 0;
    int recorded_sections = 1;
    PeriodDetection period;
    double match_tolerance = 1e-3;
    int max_attractors = 16;
};

// One trajectory with dense output at requested times: `times` when given, else `output_count`
// evenly spaced times from t0 to t_end (both included).
struct TrajectorySettings {
    double t_end = 100.0;
    int output_count = 1001;
    std::vector<double> times;
    std::vector<std::string> record; // expressions; empty: every state variable
    // Room for this many more rows, one at each firing of an event whose out_put is set (XPPAUT's
    // batch output), in time order among the others. Not in study files: the XPPAUT batch mode
    // (bifscope-cli run MODEL.ode) sets it.
    int event_rows = 0;
};

// The phase plane of two states: nullclines, direction field, equilibria and trajectories of the
// planar system in which every other state is held at a fixed value (its `fixed` entry, else its
// initial value). Empty axis names: the model's first and second states.
struct PhasePlaneSettings {
    std::string x, y;
    double x_from = -3.0, x_to = 3.0;
    double y_from = -3.0, y_to = 3.0;
    int grid = 121;      // nullcline grid points per axis
    int arrows = 21;     // direction-field arrows per axis
    double t_end = 50.0; // each trajectory runs this long forward and as long backward in time
    std::vector<std::pair<std::string, double>> fixed; // values of states off the axes
    std::vector<std::pair<double, double>> starts;     // trajectories drawn with the portrait
    // A parameter the view offers a slider for, over [slider_from, slider_to]; empty: none.
    std::string slider;
    double slider_from = 0.0, slider_to = 1.0;
};

// A tolerance for every state variable, optionally different per state.
struct Tolerance {
    double all = 1e-6;
    std::vector<std::pair<std::string, double>> per_state; // state name -> tolerance, overrides `all`
};

struct SolverSettings {
    Method method = Method::Rkck45;
    Tolerance rtol;
    Tolerance atol;
    double initial_step = 1e-2; // rk4 uses it as its fixed step
    double min_step = 1e-12;
    double max_step = 0.0;              // 0: no limit
    double max_growth = 5.0;            // a step grows by at most this factor
    double min_shrink = 0.2;            // and shrinks to no less than this fraction per rejection (as
                                        // DOPRI5 and RODAS; 0.1 followed spurious blow-ups, issue 36)
    std::int64_t max_steps = 100000000; // step budget per system over the whole run
    // > 0: a system whose state leaves |y_i| <= bound ends with status Escaped (XPPAUT's BOUND;
    // a model's `@ bound=` gives it when the study does not). 0: no bound.
    double bound = 0.0;
};

// Process `index` of `count` on one node takes the GPUs at positions index, index + count, ... of
// those chosen; with fewer GPUs than processes, the one at index % (number of GPUs).
struct GpuShare {
    int index = 0;
    int count = 1;
};

struct Study {
    int schema_version = current_schema_version;
    std::string title;
    std::string description;
    ModelSource model;
    std::vector<std::pair<std::string, double>> parameters; // fixed overrides of the model's `par` values
    std::vector<std::pair<std::string, double>> initial;    // overrides of the model's initial values
    double t0 = 0.0;
    std::vector<SweepAxis> sweep;

    AnalysisKind analysis = AnalysisKind::Bifurcation;
    BifurcationSettings bifurcation;
    LyapunovSettings lyapunov;
    ParameterMapSettings map;
    BasinSettings basins;
    TrajectorySettings trajectory;
    PhasePlaneSettings phase_plane;

    SolverSettings solver;
    PrecisionChoice precision = PrecisionChoice::Auto;
    BackendChoice backend = BackendChoice::Auto;
    std::vector<int> gpus; // CUDA device ordinals to run on ("gpus": [0, 1]); empty: every GPU
    // Not in study files: this process's part of those GPUs where several processes of one node run
    // the study (mpirun with several ranks per node), so that they do not all crowd onto every GPU.
    GpuShare gpu_share;

    // The JSON paths a study file gave ("t0", "solver", "solver.method", "analysis.section", ...),
    // set by the reader. resolve_study takes the settings a file left out from the model's `@`
    // options (engine/study/model_options.h); a study without it (made in code, or resolved) holds
    // every value it uses. Not written: a written study gives every setting.
    std::optional<std::set<std::string>> given;
};

// The spellings used in study files and messages ("bifurcation", "rkck45", "log", ...).
const char* name_of(AnalysisKind v);
const char* name_of(SweepScale v);
const char* name_of(Method v);
const char* name_of(PrecisionChoice v);
const char* name_of(BackendChoice v);
const char* name_of(SectionKind v);
const char* name_of(CrossingDirection v);
const char* name_of(IntervalValue v);
const char* name_of(Reduction v);
const char* name_of(ReductionDomain v);
const char* name_of(LyapunovMode v);

} // namespace bif::study
