// The result of running a study: columnar, one entry per system, immutable once handed out
// (jobs share it as std::shared_ptr<const Result>).
//
// Layout (allocate_result builds it; backends fill in values and statuses):
//   axes     one column per sweep axis: the swept value of every system (continuation sweeps have
//            two systems per grid point, in chains: see ResolvedStudy::system_count)
//   status   one SystemStatus per system
//   scalars  named columns with one value per system (analysis features)
//   points   a fixed-width block of rows per system (section points, trajectory samples):
//            value(system, row, column); rows_filled[system] of its rows are valid, the rest NaN
//
// Per analysis:
//   bifurcation  points: the recorded quantities, recorded_sections rows per system;
//                scalars: "direction" (+1 up, -1 down) for continuation sweeps only, then with
//                orbits.refine the refined orbits' columns (engine/study/orbit_columns.h)
//   lyapunov     scalars: "lambda1".."lambdaK" (K = 1, or N for the spectrum, largest first), per unit
//                time; "averaged_time" (how long each system averaged, shorter when it converged early)
//   map          scalars: "period" (0: none found up to max_period) when detect_period, "lambda_max"
//                when largest_exponent, one per accessory (its name), "events_<k>" per model event when
//                count_events
//   basins       scalars: "label" (attractor number from 0; -1 when none was reached), "period"
//   trajectory   points: "t" then the recorded quantities, one row per output time; one system
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/study/study.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace bif::study {

struct ResolvedStudy;
class KeptMap;
class KeptPoints;

// Why a system ended. Failures stop that system alone; the others run on.
enum class SystemStatus : std::uint8_t {
    NotRun,             // the job was cancelled before this system finished
    Ok,                 // every requested value computed
    StoppedByModel,     // an event's arret stopped it; the values up to then are kept
    StepBudgetExceeded, // solver.max_steps spent
    StepSizeUnderflow,  // the step fell below solver.min_step
    NonFinite,          // a state or a formula became NaN or infinite
    SectionNotReached,  // no section crossing within section.max_time_between
    InvalidSetup,       // e.g. a non-positive period for this system's parameters
    Escaped,            // a state went beyond solver.bound: an outcome (a basin's escape to infinity)
    EventsAccumulate,   // passed through an event's surface right after its reset turned back: the
                        // crossings accumulate there (a Zeno point), where the model has no law left
};
const char* name_of(SystemStatus status);
// Anything but NotRun, Ok, StoppedByModel and Escaped. An escaped system did what the study's bound
// asked to watch for (a basin's escape is one of its attractors), so it is no failure; like a
// failed one it has no analysis values past the escape.
bool is_failure(SystemStatus status);

struct NumberColumn {
    std::string name;
    std::vector<double> values;
};

struct PointBlock {
    std::vector<std::string> columns;
    std::size_t rows_per_system = 0;
    std::vector<std::uint32_t> rows_filled; // per system
    std::vector<double> values;             // [(system * rows_per_system + row) * columns.size() + column]

    std::size_t width() const { return columns.size(); }
    double value(std::size_t system, std::size_t row, std::size_t column) const {
        return values[(system * rows_per_system + row) * width() + column];
    }
    double* row(std::size_t system, std::size_t row) {
        return &values[(system * rows_per_system + row) * width()];
    }
};

// How the model was run: a native shared object, the compiler-free evaluator, or a GPU module.
enum class CodePath { None, NativeCompiled, Evaluator, Cuda };
const char* name_of(CodePath path);

struct RunInfo {
    std::string backend; // "cpu", "cuda"
    std::string device;  // "8 threads", "NVIDIA H100 80GB HBM3"
    codegen::Precision precision = codegen::Precision::Double;
    CodePath code_path = CodePath::None;
    std::string code_note;          // e.g. "no C++ compiler found (CXX=/nonexistent ...)" or "cache hit"
    std::vector<std::string> notes; // backend selection, e.g. "cuda: no NVIDIA driver; ran on the CPU"
    std::vector<std::string> warnings;
    double compile_seconds = 0.0;
    double run_seconds = 0.0;   // integration and analysis
    double orbit_seconds = 0.0; // of run_seconds: the refinement of a diagram's orbits (orbit_columns.h)
    double total_seconds = 0.0;
    bool complete = false; // false when cancelled: systems with status NotRun hold no values
};

struct Result {
    AnalysisKind analysis = AnalysisKind::Bifurcation;
    std::size_t system_count = 0;
    std::vector<NumberColumn> axes;
    std::vector<SystemStatus> status;
    std::vector<NumberColumn> scalars;
    PointBlock points;
    RunInfo info;
    // Set when the columns stayed on a device (engine/study/kept_map.h): axes, status, scalars and
    // points are then empty.
    std::shared_ptr<const KeptMap> kept;
    // Set when a diagram's points stayed on a device (engine/study/kept_points.h): points then has
    // its columns' names alone (rows_per_system 0); axes, status and scalars are here as usual.
    std::shared_ptr<const KeptPoints> kept_points;

    const NumberColumn* scalar(std::string_view name) const;
    std::size_t count(SystemStatus s) const;
};

// The analysis's standard layout for this study, values NaN, every status NotRun, axes filled.
// Without points: the point columns' names alone, no rows (a result whose points stay on a device).
Result allocate_result(const ResolvedStudy& study, bool with_points = true);
// The names of allocate_result's scalar columns, in its order.
std::vector<std::string> scalar_column_names(const ResolvedStudy& study);

inline constexpr double missing_value = std::numeric_limits<double>::quiet_NaN();

} // namespace bif::study
