#include "engine/study/resolved_study.h"

#include "engine/model/parse.h"
#include "engine/study/model_options.h"
#include "engine/study/resolve_parts.h"
#include "engine/study/study_checks.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace bif::study {

namespace {

// A parameter-dependent period is checked at both ends of the grid; the analyses give any other
// system with a non-positive period a failure status.
void check_period_sign(const ResolvedStudy& r, Problems& problems) {
    if (r.formulas.period_observable < 0) return;
    for (std::size_t system : {std::size_t{0}, r.system_count() - 1}) {
        const std::vector<double> p = r.parameter_slots(system);
        const double period =
            r.model->pool.evaluate(r.formulas.period, r.initial_state.data(), p.data(), r.study.t0);
        if (!(period > 0.0) || !std::isfinite(period)) {
            problems.push_back({ProblemSeverity::Error, std::string(analysis_path) + ".section.period",
                                "the period evaluates to " + std::to_string(period) + " for system " +
                                    std::to_string(system) + "; it must be positive"});
            return;
        }
    }
}

// A map is iterated: the iteration method with one iterate per unit step (XPPAUT ignores DT for a
// map), and a stroboscopic section left without a period samples every iterate. A file that gives
// no method gets the iteration.
void fill_map_settings(Study& s, bool method_given) {
    if (!method_given) s.solver.method = Method::Iteration;
    s.solver.initial_step = 1.0;
    s.solver.max_step = 0.0;
    const std::string one_iterate(1, '1');
    for (Section* section : {&s.bifurcation.section, &s.map.section, &s.basins.section})
        if (section->kind == SectionKind::Stroboscopic && section->period.empty())
            section->period = one_iterate;
}

// The iteration method runs maps only, and maps run only by it.
void check_method_fits_model(const Study& s, const model::Model& m, Problems& problems) {
    const bool iteration = s.solver.method == Method::Iteration;
    if (m.is_map() && !iteration) {
        std::string message = "the model is a map (difference equation): its method is \"iteration\", not \"";
        message += name_of(s.solver.method);
        message += '"';
        problems.push_back({ProblemSeverity::Error, "solver.method", std::move(message)});
    }
    if (!m.is_map() && iteration)
        problems.push_back({ProblemSeverity::Error, "solver.method",
                            "\"iteration\" iterates maps; this model is a flow (differential equations): "
                            "choose an integration method"});
}

} // namespace

bool ResolvedStudy::is_continuation() const {
    return study.analysis == AnalysisKind::Bifurcation && study.bifurcation.continuation;
}

std::size_t ResolvedStudy::system_count() const {
    return grid.system_count() * (is_continuation() ? 2 : 1);
}

std::size_t ResolvedStudy::chain_length() const {
    return grid.axis_count() == 0 ? 2 : 2 * grid.values(0).size();
}

std::size_t ResolvedStudy::chain_count() const {
    return grid.system_count() * 2 / chain_length();
}

bool ResolvedStudy::runs_down(std::size_t system) const {
    return is_continuation() && system % chain_length() >= chain_length() / 2;
}

std::size_t ResolvedStudy::grid_point(std::size_t system) const {
    if (!is_continuation()) return system;
    const std::size_t length = chain_length(), n0 = length / 2;
    const std::size_t row = system / length, step = system % length;
    return row * n0 + (step < n0 ? step : length - 1 - step);
}

void ResolvedStudy::system_values(std::size_t system, double* parameters_out, double* initial_out) const {
    std::copy(parameters.begin(), parameters.end(), parameters_out);
    std::copy(initial_state.begin(), initial_state.end(), initial_out);
    const std::size_t point = grid_point(system);
    for (std::size_t a = 0; a < axes.size(); ++a) {
        double* target = axes[a].target == SweepTarget::Parameter ? parameters_out : initial_out;
        target[axes[a].slot] = grid.value(point, a);
    }
}

std::vector<double> ResolvedStudy::parameter_slots(std::size_t system) const {
    std::vector<double> p(model->num_param_slots()), y(model->num_states());
    system_values(system, p.data(), y.data());
    for (const auto& d : model->derived)
        p[d.slot] = model->pool.evaluate(d.formula, y.data(), p.data(), study.t0);
    return p;
}

codegen::Request ResolvedStudy::codegen_request(codegen::Precision precision, std::string type_name) const {
    codegen::Request request;
    request.model = model.get();
    request.precision = precision;
    request.type_name = std::move(type_name);
    request.observables = formulas.observables;
    request.study_events = formulas.study_events;
    // Rosenbrock methods step the tangent system with its Jacobian: exact only with these terms
    const bool rosenbrock =
        study.solver.method == Method::Rosenbrock23 || study.solver.method == Method::Rodas4;
    request.tangent_derivatives = study.analysis == AnalysisKind::Lyapunov && rosenbrock;
    return request;
}

codegen::Precision ResolvedStudy::precision_for(bool gpu) const {
    switch (study.precision) {
    case PrecisionChoice::Float:
        return codegen::Precision::Float;
    case PrecisionChoice::Double:
        return codegen::Precision::Double;
    case PrecisionChoice::Auto:
        break;
    }
    if (!gpu) return codegen::Precision::Double;
    const double smallest = std::min(*std::min_element(rtol.begin(), rtol.end(), std::less<>{}),
                                     *std::min_element(atol.begin(), atol.end(), std::less<>{}));
    return smallest >= 1e-6 ? codegen::Precision::Float : codegen::Precision::Double;
}

ResolveResult resolve_study(const Study& study, const std::string& base_directory) {
    ResolveResult result;
    // The settings a file left out come from the model's options before the values are checked:
    // a section left out is no error when the model has one.
    Study filled = study;
    Problems model_problems, taken;
    std::optional<model::Model> parsed;
    if (study.model.path.empty() != study.model.text.empty()) {
        parsed = detail::load_study_model(study.model, base_directory, model_problems);
        const bool method_given = !filled.given || filled.given->count("solver.method");
        if (parsed) taken = apply_model_defaults(filled, *parsed);
        if (parsed && parsed->is_map()) fill_map_settings(filled, method_given);
    }
    result.problems = check_study_values(filled);
    result.problems.insert(result.problems.end(), model_problems.begin(), model_problems.end());
    result.problems.insert(result.problems.end(), taken.begin(), taken.end());
    if (!parsed) return result;
    auto model = std::make_shared<model::Model>(std::move(*parsed));
    auto resolved = std::make_shared<ResolvedStudy>();
    resolved->study = std::move(filled);
    resolved->base_directory = base_directory;
    resolved->model = model;
    check_method_fits_model(resolved->study, *model, result.problems);
    detail::resolve_names(*resolved, result.problems);
    detail::resolve_formulas(*model, *resolved, result.problems);
    if (model->num_states() == 0)
        result.problems.push_back(
            {ProblemSeverity::Error, "model", "the model has no differential equations"});
    if (has_errors(result.problems)) return result;
    check_period_sign(*resolved, result.problems);
    if (!has_errors(result.problems)) result.resolved = std::move(resolved);
    return result;
}

std::optional<model::Model> detail::load_study_model(const ModelSource& source,
                                                     const std::string& base_directory, Problems& problems) {
    model::ParseResult parsed;
    if (!source.path.empty()) {
        std::filesystem::path path(source.path);
        if (path.is_relative() && !base_directory.empty())
            path = std::filesystem::path(base_directory) / path;
        parsed = model::load_model_file(path.string());
    } else {
        parsed = model::parse_model(source.text, "<study model>");
    }
    const std::string where = source.path.empty() ? "model.text" : "model.path";
    for (const auto& d : parsed.diagnostics)
        if (d.severity != model::Severity::Note)
            problems.push_back(detail::problem_from_diagnostic(d, where, true));
    return std::move(parsed.model);
}

ResolveResult load_study_file(const std::string& path) {
    StudyReadResult read = read_study_file(path);
    if (!read.study) return {nullptr, std::move(read.problems)};
    ResolveResult result = resolve_study(*read.study, std::filesystem::path(path).parent_path().string());
    result.problems.insert(result.problems.begin(), read.problems.begin(), read.problems.end());
    if (has_errors(read.problems)) result.resolved = nullptr;
    return result;
}

} // namespace bif::study
