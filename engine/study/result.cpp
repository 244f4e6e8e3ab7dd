#include "engine/study/result.h"

#include "engine/study/orbit_columns.h"
#include "engine/study/resolved_study.h"
#include "engine/study/system_columns.h"

#include <algorithm>
#include <future>

namespace bif::study {

const char* name_of(SystemStatus status) {
    switch (status) {
    case SystemStatus::NotRun:
        return "not_run";
    case SystemStatus::Ok:
        return "ok";
    case SystemStatus::StoppedByModel:
        return "stopped_by_model";
    case SystemStatus::StepBudgetExceeded:
        return "step_budget_exceeded";
    case SystemStatus::StepSizeUnderflow:
        return "step_size_underflow";
    case SystemStatus::NonFinite:
        return "non_finite";
    case SystemStatus::SectionNotReached:
        return "section_not_reached";
    case SystemStatus::InvalidSetup:
        return "invalid_setup";
    case SystemStatus::Escaped:
        return "escaped";
    case SystemStatus::EventsAccumulate:
        return "events_accumulate";
    }
    return "?";
}

bool is_failure(SystemStatus status) {
    return status != SystemStatus::NotRun && status != SystemStatus::Ok &&
           status != SystemStatus::StoppedByModel && status != SystemStatus::Escaped;
}

const char* name_of(CodePath path) {
    switch (path) {
    case CodePath::None:
        return "none";
    case CodePath::NativeCompiled:
        return "native";
    case CodePath::Evaluator:
        return "evaluator";
    case CodePath::Cuda:
        return "cuda";
    }
    return "?";
}

const NumberColumn* Result::scalar(std::string_view name) const {
    for (const auto& c : scalars)
        if (c.name == name) return &c;
    return nullptr;
}

std::size_t Result::count(SystemStatus s) const {
    return static_cast<std::size_t>(std::count(status.begin(), status.end(), s));
}

namespace {

std::vector<std::string> quantity_names(const std::vector<StudyQuantity>& quantities) {
    std::vector<std::string> names;
    for (const auto& q : quantities)
        names.push_back(q.name);
    return names;
}

// The points table's columns and rows per system; no columns where the analysis records none.
struct PointShape {
    std::vector<std::string> columns;
    std::size_t rows = 0;
};

PointShape point_shape(const ResolvedStudy& s) {
    switch (s.study.analysis) {
    case AnalysisKind::Bifurcation:
        return {quantity_names(s.formulas.recorded),
                static_cast<std::size_t>(s.study.bifurcation.recorded_sections)};
    case AnalysisKind::Trajectory: {
        std::vector<std::string> columns{"t"};
        for (auto& name : quantity_names(s.formulas.recorded))
            columns.push_back(std::move(name));
        const auto& t = s.study.trajectory;
        return {std::move(columns),
                (t.times.empty() ? static_cast<std::size_t>(t.output_count) : t.times.size()) +
                    static_cast<std::size_t>(std::max(t.event_rows, 0))};
    }
    default:
        return {};
    }
}

// Systems from which allocate_result fills the points table on a thread of its own while the calling
// thread fills the other columns: the first touch of a big table (its page faults, on the one thread
// that fills a vector) was most of allocate_result's time (issue 36: ~0.18 s for the ~300 MB of 2^23
// systems, two thirds of it the points).
constexpr std::size_t concurrent_points_systems = std::size_t(1) << 18;

std::vector<double> missing_values(std::size_t n) {
    return std::vector<double>(n, missing_value);
}

} // namespace

Result allocate_result(const ResolvedStudy& s, bool with_points) {
    Result r;
    r.analysis = s.study.analysis;
    r.system_count = s.system_count();
    PointShape shape = point_shape(s);
    const bool has_points =
        s.study.analysis == AnalysisKind::Bifurcation || s.study.analysis == AnalysisKind::Trajectory;
    const std::size_t cells = r.system_count * shape.rows * shape.columns.size();
    std::future<std::vector<double>> values;
    if (has_points && with_points && r.system_count >= concurrent_points_systems)
        values = std::async(std::launch::async, missing_values, cells);
    r.status.assign(r.system_count, SystemStatus::NotRun);
    for (std::size_t a = 0; a < s.axes.size(); ++a) {
        NumberColumn column{s.axes[a].name, std::vector<double>(r.system_count)};
        fill_axis_values(s, a, 0, r.system_count, column.values.data());
        r.axes.push_back(std::move(column));
    }
    for (std::string& name : scalar_column_names(s))
        r.scalars.push_back({std::move(name), missing_values(r.system_count)});
    if (s.is_continuation())
        for (std::size_t i = 0; i < r.system_count; ++i)
            r.scalars.front().values[i] = s.runs_down(i) ? -1.0 : 1.0;
    if (has_points) {
        r.points.columns = std::move(shape.columns);
        if (with_points) {
            r.points.rows_per_system = shape.rows;
            r.points.rows_filled.assign(r.system_count, 0);
            r.points.values = values.valid() ? values.get() : missing_values(cells);
        }
    }
    return r;
}

std::vector<std::string> scalar_column_names(const ResolvedStudy& s) {
    std::vector<std::string> names;
    switch (s.study.analysis) {
    case AnalysisKind::Bifurcation:
        if (s.is_continuation()) names.push_back("direction");
        for (std::string& name : orbit_column_names(s))
            names.push_back(std::move(name));
        break;
    case AnalysisKind::Lyapunov: {
        const std::size_t k = s.study.lyapunov.mode == LyapunovMode::Largest ? 1 : s.model->num_states();
        for (std::size_t i = 1; i <= k; ++i)
            names.push_back("lambda" + std::to_string(i));
        names.push_back("averaged_time");
        break;
    }
    case AnalysisKind::ParameterMap:
        if (s.study.map.detect_period) names.push_back("period");
        if (s.study.map.largest_exponent) names.push_back("lambda_max");
        for (const auto& a : s.formulas.accessories)
            names.push_back(a.name);
        if (s.study.map.count_events)
            for (std::size_t k = 0; k < s.model->events.size(); ++k)
                names.push_back("events_" + std::to_string(k));
        break;
    case AnalysisKind::Basins:
        names = {"label", "period"};
        break;
    case AnalysisKind::Trajectory:
    case AnalysisKind::PhasePlane:
        break;
    }
    return names;
}

} // namespace bif::study
