#include "engine/study/resolve_parts.h"

#include <algorithm>
#include <cctype>

namespace bif::study::detail {

namespace {

bool same_name(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

bool is_derived_parameter(const model::Model& m, std::string_view name) {
    return std::any_of(m.derived.begin(), m.derived.end(),
                       [&](const auto& d) { return same_name(d.name, name); });
}

// The parameter slot of `name`, or a problem at `path` saying why there is none.
int parameter_slot(const model::Model& m, const std::string& name, const std::string& path,
                   Problems& problems) {
    const int index = m.parameter_index(name);
    if (index >= 0) return index;
    std::string message;
    if (is_derived_parameter(m, name))
        message = "'" + name + "' is a derived parameter (!" + name +
                  "=...): it follows the others and cannot be set";
    else if (m.state_index(name) >= 0)
        message = "'" + name + "' is a state variable, not a parameter; set it under \"initial\"";
    else
        message =
            "unknown parameter '" + name + "'; the model's parameters are: " + list_names_of_parameters(m);
    problems.push_back({ProblemSeverity::Error, path, message});
    return -1;
}

int state_slot(const model::Model& m, const std::string& name, const std::string& path, Problems& problems) {
    const int index = m.state_index(name);
    if (index >= 0) return index;
    std::string message =
        m.parameter_index(name) >= 0
            ? "'" + name + "' is a parameter, not a state variable; set it under \"parameters\""
            : "unknown state variable '" + name + "'; the model's states are: " + list_names_of_states(m);
    problems.push_back({ProblemSeverity::Error, path, message});
    return -1;
}

void resolve_overrides(ResolvedStudy& out, Problems& problems) {
    const model::Model& m = *out.model;
    for (const auto& [name, value] : out.study.parameters)
        if (int slot = parameter_slot(m, name, "parameters." + name, problems); slot >= 0)
            out.parameters[slot] = value;
    for (const auto& [name, value] : out.study.initial)
        if (int slot = state_slot(m, name, "initial." + name, problems); slot >= 0)
            out.initial_state[slot] = value;
}

void resolve_axes(ResolvedStudy& out, Problems& problems) {
    const model::Model& m = *out.model;
    std::vector<std::vector<double>> values;
    for (std::size_t i = 0; i < out.study.sweep.size(); ++i) {
        const SweepAxis& axis = out.study.sweep[i];
        const bool is_parameter = axis.target == SweepTarget::Parameter;
        const std::string path =
            "sweep[" + std::to_string(i) + "]" + (is_parameter ? ".parameter" : ".initial");
        const int slot = is_parameter ? parameter_slot(m, axis.name, path, problems)
                                      : state_slot(m, axis.name, path, problems);
        ResolvedAxis resolved{axis.target, axis.name, slot < 0 ? 0u : static_cast<std::uint32_t>(slot)};
        if (slot >= 0) resolved.name = is_parameter ? m.parameters[slot].name : m.states[slot].name;
        out.axes.push_back(resolved);
        values.push_back(axis_values(axis));
    }
    out.grid = SweepGrid(std::move(values));
}

std::vector<double> per_state(const model::Model& m, const Tolerance& t, const std::string& path,
                              Problems& problems) {
    std::vector<double> values(m.num_states(), t.all);
    for (const auto& [name, value] : t.per_state)
        if (int slot = state_slot(m, name, path + "." + name, problems); slot >= 0) values[slot] = value;
    return values;
}

// The axes default to the first two states; the fixed values to the initial values.
void resolve_phase_plane(ResolvedStudy& out, Problems& problems) {
    const model::Model& m = *out.model;
    const PhasePlaneSettings& s = out.study.phase_plane;
    const std::string path = "analysis.";
    if (m.is_map()) {
        problems.push_back({ProblemSeverity::Error, "analysis.kind",
                            "a phase plane is drawn for differential equations; this model is a map"});
        return;
    }
    if (m.num_states() < 2) {
        problems.push_back(
            {ProblemSeverity::Error, "analysis.kind",
             "a phase plane needs two state variables; the model has " + std::to_string(m.num_states())});
        return;
    }
    ResolvedPhasePlane& r = out.phase_plane;
    r.state = out.initial_state;
    const int x = s.x.empty() ? 0 : state_slot(m, s.x, path + "x", problems);
    const int y = s.y.empty() ? 1 : state_slot(m, s.y, path + "y", problems);
    if (x >= 0 && x == y)
        problems.push_back({ProblemSeverity::Error, path + "y", "the two axes need two different states"});
    r.x = static_cast<std::uint32_t>(std::max(x, 0));
    r.y = static_cast<std::uint32_t>(std::max(y, 0));
    for (const auto& [name, value] : s.fixed)
        if (int slot = state_slot(m, name, path + "fixed." + name, problems); slot >= 0)
            r.state[static_cast<std::size_t>(slot)] = value;
    if (!s.slider.empty()) r.slider = parameter_slot(m, s.slider, path + "slider.parameter", problems);
}

} // namespace

std::string list_names_of_parameters(const model::Model& m) {
    std::string list;
    for (const auto& p : m.parameters)
        list += (list.empty() ? "" : ", ") + p.name;
    return list.empty() ? "(none)" : list;
}

std::string list_names_of_states(const model::Model& m) {
    std::string list;
    for (const auto& s : m.states)
        list += (list.empty() ? "" : ", ") + s.name;
    return list.empty() ? "(none)" : list;
}

void resolve_names(ResolvedStudy& out, Problems& problems) {
    const model::Model& m = *out.model;
    out.parameters.clear();
    for (const auto& p : m.parameters)
        out.parameters.push_back(p.value);
    out.initial_state.clear();
    for (const auto& s : m.states)
        out.initial_state.push_back(s.initial);
    resolve_overrides(out, problems);
    resolve_axes(out, problems);
    out.rtol = per_state(m, out.study.solver.rtol, "solver.rtol", problems);
    out.atol = per_state(m, out.study.solver.atol, "solver.atol", problems);
    if (out.study.analysis == AnalysisKind::PhasePlane) resolve_phase_plane(out, problems);
}

} // namespace bif::study::detail
