#include "ui/charts/inspection_plan.h"

#include <algorithm>
#include <cstdio>

namespace bif::ui {

namespace {

// Output samples per section interval, and the window of a Lyapunov study in renormalisation
// intervals: enough to see the attractor's shape without drawing thousands of periods.
constexpr int lyapunov_window_intervals = 50;
constexpr double default_window = 100.0;

std::string format_value(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

std::vector<std::string> recorded_quantities(const study::ResolvedStudy& resolved) {
    const model::Model& model = *resolved.model;
    std::vector<std::string> names;
    for (const auto& state : model.states)
        names.push_back(state.name);
    const auto add = [&](const std::string& expression) {
        if (model.state_index(expression) >= 0) return;
        if (std::find(names.begin(), names.end(), expression) == names.end()) names.push_back(expression);
    };
    const study::Study& s = resolved.study;
    if (s.analysis == study::AnalysisKind::Bifurcation)
        for (const auto& q : s.bifurcation.record)
            add(q.expression);
    if (s.analysis == study::AnalysisKind::Trajectory)
        for (const auto& expression : s.trajectory.record)
            add(expression);
    return names;
}

const study::Section* section_of(const study::Study& s, int& transient, int& recorded) {
    switch (s.analysis) {
    case study::AnalysisKind::Bifurcation:
        transient = s.bifurcation.transient_sections, recorded = s.bifurcation.recorded_sections;
        return &s.bifurcation.section;
    case study::AnalysisKind::ParameterMap:
        transient = s.map.transient_sections, recorded = s.map.recorded_sections;
        return &s.map.section;
    case study::AnalysisKind::Basins:
        transient = s.basins.transient_sections, recorded = s.basins.recorded_sections;
        return &s.basins.section;
    default:
        return nullptr;
    }
}

} // namespace

InspectionPlan plan_inspection(const study::ResolvedStudy& resolved, std::size_t system) {
    const model::Model& model = *resolved.model;
    InspectionPlan plan;
    plan.single = resolved.study;
    study::Study& single = plan.single;
    single.sweep.clear();
    single.backend = study::BackendChoice::Cpu;
    std::vector<double> p(model.parameters.size()), y0(model.states.size());
    resolved.system_values(system, p.data(), y0.data());
    single.parameters.clear();
    for (std::size_t i = 0; i < p.size(); ++i)
        single.parameters.emplace_back(model.parameters[i].name, p[i]);
    single.initial.clear();
    for (std::size_t i = 0; i < y0.size(); ++i)
        single.initial.emplace_back(model.states[i].name, y0[i]);
    if (resolved.is_continuation()) {
        single.bifurcation.continuation = false;
        plan.notes.push_back("continuation: this system starts from the study's initial values, "
                             "not from its neighbour's final state");
    }
    plan.quantities = recorded_quantities(resolved);

    int transient = 0, recorded = 0;
    const study::Section* section = section_of(single, transient, recorded);
    if (!section) return plan;
    study::Study s = single;
    s.analysis = study::AnalysisKind::Bifurcation;
    // A diagram sweeps exactly one parameter: one value of it, this system's.
    if (!model.parameters.empty()) {
        std::size_t swept = 0;
        if (!resolved.axes.empty() && resolved.axes.front().target == study::SweepTarget::Parameter)
            swept = resolved.axes.front().slot;
        s.sweep.push_back({study::SweepTarget::Parameter, model.parameters[swept].name, p[swept], p[swept], 1,
                           study::SweepScale::Linear});
    }
    s.bifurcation = {};
    s.bifurcation.section = *section;
    // The last `shown` recorded points are marked, as the study's own last rows; one more section
    // point before them, where there is one, starts the window.
    const int shown = std::min(recorded, max_inspected_intervals);
    int skipped = transient + (recorded - shown);
    plan.first_marked_row = skipped > 0 ? 1 : 0;
    s.bifurcation.transient_sections = skipped - int(plan.first_marked_row);
    s.bifurcation.recorded_sections = shown + int(plan.first_marked_row);
    s.bifurcation.record.push_back({"t", "t", study::IntervalValue::AtSection});
    for (const auto& q : plan.quantities)
        s.bifurcation.record.push_back({q, q, study::IntervalValue::AtSection});
    plan.section_study = std::move(s);
    return plan;
}

std::string describe_system(const study::ResolvedStudy& resolved, std::size_t system) {
    if (resolved.axes.empty()) return "the study's one system";
    std::string text;
    const std::size_t point = resolved.grid_point(system);
    for (std::size_t a = 0; a < resolved.axes.size(); ++a) {
        if (!text.empty()) text += ", ";
        text += resolved.axes[a].name;
        if (resolved.axes[a].target == study::SweepTarget::InitialValue) text += "(0)";
        text += " = " + format_value(resolved.grid.value(point, a));
    }
    if (resolved.is_continuation())
        text += system < resolved.grid.system_count() ? " (sweep up)" : " (sweep down)";
    return text;
}

study::Study trajectory_study(const InspectionPlan& plan, double t_from, double t_to, int samples,
                              const std::vector<double>& extra) {
    study::Study s = plan.single;
    s.analysis = study::AnalysisKind::Trajectory;
    s.trajectory = {};
    s.trajectory.t_end = t_to;
    std::vector<double> times;
    samples = std::max(samples, 2);
    for (int i = 0; i < samples; ++i)
        times.push_back(t_from + (t_to - t_from) * double(i) / double(samples - 1));
    for (double t : extra)
        if (t >= t_from && t <= t_to) times.push_back(t);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    s.trajectory.times = std::move(times);
    s.trajectory.output_count = int(s.trajectory.times.size());
    s.trajectory.record = plan.quantities;
    return s;
}

bool trajectory_window(const study::ResolvedStudy& resolved, const InspectionPlan& plan,
                       const study::Result* section, double& t_from, double& t_to) {
    const study::Study& s = resolved.study;
    if (plan.section_study) {
        if (!section || section->points.rows_filled.empty()) return false;
        const std::size_t rows = section->points.rows_filled[0];
        if (rows <= plan.first_marked_row) return false;
        t_from = plan.first_marked_row == 1 ? section->points.value(0, 0, 0) : s.t0;
        t_to = section->points.value(0, rows - 1, 0);
        return t_to > t_from;
    }
    if (s.analysis == study::AnalysisKind::Lyapunov) {
        const auto& l = s.lyapunov;
        t_from = s.t0 + l.transient_time;
        const double interval = l.renormalization_interval > 0 ? l.renormalization_interval : 1.0;
        double span = std::min(l.averaging_time, lyapunov_window_intervals * interval);
        if (!(span > 0)) span = default_window;
        t_to = t_from + span;
        return true;
    }
    t_from = s.t0;
    t_to = s.trajectory.times.empty() ? s.trajectory.t_end : s.trajectory.times.back();
    if (!(t_to > t_from)) t_to = t_from + default_window;
    return true;
}

} // namespace bif::ui
