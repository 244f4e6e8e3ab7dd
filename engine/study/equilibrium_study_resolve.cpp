#include "engine/model/input_file.h"
#include "engine/model/parse.h"
#include "engine/study/equilibrium_study.h"
#include "engine/study/resolve_parts.h"

#include <cmath>
#include <filesystem>

namespace bif::study {

namespace {

void error(Problems& problems, std::string path, std::string message) {
    problems.push_back({ProblemSeverity::Error, std::move(path), std::move(message)});
}

void check_orbit_values(const OrbitSpec& o, Problems& problems) {
    if (o.k < 1 || o.k > 100000)
        error(problems, "analysis.orbit.k", "must be between 1 and 100000, got " + std::to_string(o.k));
    if (o.segments < 1 || o.segments > 10000)
        error(problems, "analysis.orbit.segments",
              "must be between 1 and 10000, got " + std::to_string(o.segments));
    if (o.transient_periods < 0 || o.transient_periods > 10'000'000)
        error(problems, "analysis.orbit.transient_periods",
              "must be between 0 and 10000000, got " + std::to_string(o.transient_periods));
    if (o.kind == OrbitKind::Autonomous && (!std::isfinite(o.period) || !(o.period > 0.0)))
        error(problems, "analysis.orbit.period", "the period's guess must be finite and > 0");
    if (!(o.rtol > 0.0) || !(o.atol > 0.0) || !std::isfinite(o.rtol) || !std::isfinite(o.atol))
        error(problems, "analysis.orbit.rtol", "the tolerances rtol and atol must be finite and > 0");
}

void check_values(const EquilibriumStudy& s, Problems& problems) {
    if (s.is_orbit()) check_orbit_values(s.orbit, problems);
    if (s.starts < 1 || s.starts > 10'000'000)
        error(problems, "analysis.starts", "must be between 1 and 10000000, got " + std::to_string(s.starts));
    for (const StateRange& r : s.box)
        if (!std::isfinite(r.lower) || !std::isfinite(r.upper) || !(r.lower <= r.upper))
            error(problems, "analysis.box." + r.state, "needs finite bounds with lower <= upper");
    if (!s.is_continuation()) return;
    if (!std::isfinite(s.from) || !std::isfinite(s.to) || !(s.from < s.to))
        error(problems, "analysis.to", "the parameter range needs finite from < to");
    if (!(s.min_step > 0.0) || !(s.step >= s.min_step) || !(s.max_step >= s.step) ||
        !std::isfinite(s.max_step))
        error(problems, "analysis.step", "needs 0 < min_step <= step <= max_step");
    if (s.max_points < 2 || s.max_points > 1'000'000)
        error(problems, "analysis.max_points",
              "must be between 2 and 1000000, got " + std::to_string(s.max_points));
    if (s.has_second_parameter() &&
        (!std::isfinite(s.second_from) || !std::isfinite(s.second_to) || !(s.second_from < s.second_to)))
        error(problems, "analysis.second_to",
              "the second parameter's range needs finite second_from < second_to");
}

void resolve_parameters(const EquilibriumStudy& s, const model::Model& m, ResolvedEquilibriumStudy& r,
                        Problems& problems) {
    for (const model::Parameter& p : m.parameters)
        r.parameters.push_back(p.value);
    for (const auto& [name, value] : s.parameters) {
        const int k = m.parameter_index(name);
        if (k < 0)
            error(problems, "parameters." + name,
                  "the model has no parameter '" + name + "'; it has " + detail::list_names_of_parameters(m));
        else
            r.parameters[std::size_t(k)] = value;
    }
}

void resolve_box(const EquilibriumStudy& s, const model::Model& m, ResolvedEquilibriumStudy& r,
                 Problems& problems) {
    const std::size_t n = m.num_states();
    std::vector<bool> given(n, false);
    r.lower.assign(n, 0.0);
    r.upper.assign(n, 0.0);
    std::optional<StateRange> rest;
    for (const StateRange& range : s.box) {
        if (range.state == "*") {
            rest = range;
            continue;
        }
        const int i = m.state_index(range.state);
        if (i < 0) {
            error(problems, "analysis.box." + range.state,
                  "the model has no state '" + range.state + "'; it has " + detail::list_names_of_states(m));
            continue;
        }
        r.lower[std::size_t(i)] = range.lower;
        r.upper[std::size_t(i)] = range.upper;
        given[std::size_t(i)] = true;
    }
    const bool needs_box =
        s.analysis == EquilibriumAnalysis::Equilibria || (s.start.empty() && !s.is_orbit());
    for (std::size_t i = 0; i < n; ++i) {
        if (given[i]) continue;
        if (rest) {
            r.lower[i] = rest->lower;
            r.upper[i] = rest->upper;
        } else if (needs_box) {
            error(problems, "analysis.box",
                  "no range for state '" + m.states[i].name + "' (name it, or give \"*\": [lower, upper])");
        }
    }
}

void resolve_second_parameter(const EquilibriumStudy& s, const model::Model& m, ResolvedEquilibriumStudy& r,
                              Problems& problems) {
    r.second_parameter = m.parameter_index(s.second_parameter);
    if (r.second_parameter < 0) {
        error(problems, "analysis.second_parameter",
              "the model has no parameter '" + s.second_parameter + "'; it has " +
                  detail::list_names_of_parameters(m));
        return;
    }
    if (r.second_parameter == r.parameter)
        error(problems, "analysis.second_parameter", "must differ from the continued parameter");
    const double value = r.parameters[std::size_t(r.second_parameter)];
    if (value < s.second_from || value > s.second_to)
        error(problems, "analysis.second_from",
              "the curves start at " + s.second_parameter + " = " + std::to_string(value) +
                  " (the model's value or `parameters`'), outside [second_from, second_to]");
}

void resolve_continuation(const EquilibriumStudy& s, const model::Model& m, ResolvedEquilibriumStudy& r,
                          Problems& problems) {
    r.parameter = m.parameter_index(s.parameter);
    if (r.parameter < 0) {
        error(problems, "analysis.parameter",
              "the model has no parameter '" + s.parameter + "'; it has " +
                  detail::list_names_of_parameters(m));
        return;
    }
    const double value = r.parameters[std::size_t(r.parameter)];
    if (value < s.from || value > s.to)
        error(problems, "analysis.from",
              "the continuation starts at " + s.parameter + " = " + std::to_string(value) +
                  " (the model's value or `parameters`'), outside [from, to]");
    if (s.has_second_parameter()) resolve_second_parameter(s, m, r, problems);
    if (s.start.empty()) return;
    r.start.assign(m.num_states(), 0.0);
    std::vector<bool> given(m.num_states(), false);
    for (const auto& [name, v] : s.start) {
        const int i = m.state_index(name);
        if (i < 0) {
            error(problems, "analysis.start." + name,
                  "the model has no state '" + name + "'; it has " + detail::list_names_of_states(m));
            continue;
        }
        r.start[std::size_t(i)] = v;
        given[std::size_t(i)] = true;
    }
    for (std::size_t i = 0; i < given.size(); ++i)
        if (!given[i]) error(problems, "analysis.start", "no value for state '" + m.states[i].name + "'");
}

// The forcing period's formula, parsed into the model's pool: parameters only.
void resolve_forcing_period(const EquilibriumStudy& s, model::Model& m, ResolvedEquilibriumStudy& r,
                            Problems& problems) {
    const std::string path = "analysis.orbit.forcing_period";
    model::ExpressionResult parsed = model::parse_expression(m, s.orbit.forcing_period);
    for (const auto& d : parsed.diagnostics)
        if (d.severity != model::Severity::Note)
            problems.push_back(detail::problem_from_diagnostic(d, path, false));
    if (model::has_errors(parsed.diagnostics) || !parsed.node) return;
    if (m.pool.depends_on_state_or_time(*parsed.node))
        return error(problems, path,
                     "the forcing period may depend on parameters only, not on the state or t");
    r.forcing_period = *parsed.node;
}

// An orbit's period map fits the model's kind: iterates for a map, a flow otherwise.
void check_orbit_model(const EquilibriumStudy& s, const model::Model& m, Problems& problems) {
    if (m.num_states() == 0) error(problems, "model", "the model has no equations");
    if (s.orbit.kind == OrbitKind::Map && !m.is_map())
        error(problems, "analysis.orbit.kind",
              "'map' needs a map model (x(t+1)=...); this one is a flow: use 'stroboscopic' or 'autonomous'");
    if (s.orbit.kind != OrbitKind::Map && m.is_map())
        error(problems, "analysis.orbit.kind",
              std::string("'") + name_of(s.orbit.kind) +
                  "' needs a flow (x'=...); this model is a map: use 'map'");
}

// The model itself: equilibria need an autonomous flow.
void check_model(const model::Model& m, Problems& problems) {
    if (m.num_states() == 0) error(problems, "model", "the model has no differential equations");
    if (m.is_map())
        error(problems, "model",
              "the model is a map (x(t+1)=...): equilibria and their continuation are for flows (x'=...)");
}

} // namespace

EquilibriumResolveResult resolve_equilibrium_study(const EquilibriumStudy& s,
                                                   const std::string& base_directory) {
    EquilibriumResolveResult result;
    check_values(s, result.problems);
    if (s.model.path.empty() == s.model.text.empty()) {
        error(result.problems, "model", "give exactly one of model.path and model.text");
        return result;
    }
    std::optional<model::Model> parsed = detail::load_study_model(s.model, base_directory, result.problems);
    if (!parsed) return result;
    auto r = std::make_shared<ResolvedEquilibriumStudy>();
    r->study = s;
    if (s.is_orbit())
        check_orbit_model(s, *parsed, result.problems);
    else
        check_model(*parsed, result.problems);
    resolve_parameters(s, *parsed, *r, result.problems);
    if (!s.is_orbit()) resolve_box(s, *parsed, *r, result.problems);
    if (s.is_continuation()) resolve_continuation(s, *parsed, *r, result.problems);
    if (s.is_orbit() && s.orbit.kind == OrbitKind::Stroboscopic)
        resolve_forcing_period(s, *parsed, *r, result.problems);
    r->model = std::make_shared<const model::Model>(std::move(*parsed));
    if (!has_errors(result.problems)) result.resolved = std::move(r);
    return result;
}

EquilibriumResolveResult load_equilibrium_study_file(const std::string& path) {
    EquilibriumResolveResult result;
    const model::InputFile file = model::read_input_file(path);
    if (!file.text) {
        error(result.problems, "", "cannot read study file '" + path + "': " + file.failure);
        return result;
    }
    EquilibriumStudyReadResult read = read_equilibrium_study_json(*file.text);
    if (!read.study) {
        result.problems = std::move(read.problems);
        return result;
    }
    result = resolve_equilibrium_study(*read.study, std::filesystem::path(path).parent_path().string());
    result.problems.insert(result.problems.begin(), read.problems.begin(), read.problems.end());
    if (has_errors(read.problems)) result.resolved = nullptr;
    return result;
}

} // namespace bif::study
