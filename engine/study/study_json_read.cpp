#include "engine/model/input_file.h"
#include "engine/study/json_fields.h"
#include "engine/study/study_json.h"

namespace bif::study {

namespace {

using nlohmann::json;

// {"name": number, ...} into ordered pairs (file order is kept for messages and writing back).
void read_named_numbers(JsonFields& fields, const std::string& key,
                        std::vector<std::pair<std::string, double>>& out, Problems& problems) {
    const json* v = fields.value(key);
    if (!v) return;
    if (!v->is_object()) {
        fields.error(key, "expected an object of name: number pairs, got " + json_type_name(*v));
        return;
    }
    for (const auto& [name, value] : v->items()) {
        if (!value.is_number()) {
            problems.push_back({ProblemSeverity::Error, member_path(fields.path_of(key), name),
                                "expected a number, got " + json_type_name(value)});
            continue;
        }
        out.emplace_back(name, value.get<double>());
    }
}

// "gpus": [0, 1], device ordinals for the CUDA backend.
void read_gpus(JsonFields& fields, std::vector<int>& out, Problems& problems) {
    const json* v = fields.value("gpus");
    if (!v) return;
    if (!v->is_array())
        return fields.error("gpus", "expected an array of GPU numbers, got " + json_type_name(*v));
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json& g = (*v)[i];
        if (!g.is_number_integer() || g.get<long long>() < 0 || g.get<long long>() > 1023) {
            problems.push_back({ProblemSeverity::Error, element_path(fields.path_of("gpus"), i),
                                "expected a GPU number (0, 1, ...), got " + g.dump()});
            continue;
        }
        out.push_back(g.get<int>());
    }
}

void read_model(JsonFields& root, Study& study, Problems& problems) {
    const json* v = root.value("model");
    if (!v) {
        problems.push_back({ProblemSeverity::Error, "model",
                            "missing model: give {\"path\": \"file.ode\"} or {\"text\": \"...\"}"});
        return;
    }
    JsonFields fields(*v, "model", problems);
    fields.text("path", study.model.path);
    fields.text("text", study.model.text);
    fields.finish();
}

void read_sweep_axis(const json& v, const std::string& path, Study& study, Problems& problems) {
    JsonFields fields(v, path, problems);
    SweepAxis axis;
    const bool is_parameter = fields.has("parameter"), is_initial = fields.has("initial");
    if (is_parameter && is_initial) {
        problems.push_back(
            {ProblemSeverity::Error, path, "give either \"parameter\" or \"initial\", not both"});
    } else if (is_initial) {
        axis.target = SweepTarget::InitialValue;
        fields.text("initial", axis.name);
    } else if (is_parameter) {
        fields.text("parameter", axis.name);
    } else if (v.is_object()) {
        problems.push_back({ProblemSeverity::Error, path,
                            "a sweep axis names what it sweeps: \"parameter\": NAME or \"initial\": STATE"});
    }
    if (!fields.number("from", axis.from) && v.is_object()) fields.error("from", "missing the range start");
    if (!fields.number("to", axis.to) && v.is_object()) fields.error("to", "missing the range end");
    fields.whole_number("count", axis.count);
    fields.choice("scale", axis.scale);
    fields.finish();
    study.sweep.push_back(axis);
}

void read_sweep(JsonFields& root, Study& study, Problems& problems) {
    const json* v = root.value("sweep");
    if (!v) return;
    if (!v->is_array()) {
        root.error("sweep", "expected an array of axes, got " + json_type_name(*v));
        return;
    }
    for (std::size_t i = 0; i < v->size(); ++i)
        read_sweep_axis((*v)[i], element_path("sweep", i), study, problems);
}

void read_section(JsonFields& parent, Section& section, Problems& problems) {
    const json* v = parent.value("section");
    if (!v) return;
    JsonFields fields(*v, parent.path_of("section"), problems);
    fields.choice("kind", section.kind);
    if (const json* period = fields.value("period")) {
        if (period->is_number())
            section.period = period->dump();
        else if (period->is_string())
            section.period = period->get<std::string>();
        else
            fields.error("period", "expected a formula or a number, got " + json_type_name(*period));
    }
    fields.text("condition", section.condition);
    fields.choice("direction", section.direction);
    fields.number("max_time_between", section.max_time_between);
    fields.finish();
}

// "y1" or {"expression": "y1", "name": "max y1", "value": "max_between"}.
void read_recorded(JsonFields& parent, std::vector<RecordedQuantity>& out, Problems& problems) {
    const json* v = parent.value("record");
    if (!v) return;
    if (!v->is_array()) {
        parent.error("record", "expected an array of formulas, got " + json_type_name(*v));
        return;
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
        const std::string path = element_path(parent.path_of("record"), i);
        RecordedQuantity q;
        if ((*v)[i].is_string()) {
            q.expression = (*v)[i].get<std::string>();
        } else {
            JsonFields fields((*v)[i], path, problems);
            if (!fields.text("expression", q.expression) && (*v)[i].is_object())
                problems.push_back({ProblemSeverity::Error, path, "missing \"expression\""});
            fields.text("name", q.name);
            fields.choice("value", q.value);
            fields.finish();
        }
        out.push_back(q);
    }
}

void read_texts(JsonFields& parent, const std::string& key, std::vector<std::string>& out,
                Problems& problems) {
    const json* v = parent.value(key);
    if (!v) return;
    if (!v->is_array()) {
        parent.error(key, "expected an array of formulas, got " + json_type_name(*v));
        return;
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
        if ((*v)[i].is_string())
            out.push_back((*v)[i].get<std::string>());
        else
            problems.push_back({ProblemSeverity::Error, element_path(parent.path_of(key), i),
                                "expected a formula, got " + json_type_name((*v)[i])});
    }
}

void read_period_detection(JsonFields& parent, PeriodDetection& period, Problems& problems) {
    const json* v = parent.value("period");
    if (!v) return;
    JsonFields fields(*v, parent.path_of("period"), problems);
    fields.number("tolerance", period.tolerance);
    fields.whole_number("max_period", period.max_period);
    fields.finish();
}

void read_accessories(JsonFields& parent, std::vector<Accessory>& out, Problems& problems) {
    const json* v = parent.value("accessories");
    if (!v) return;
    if (!v->is_array()) {
        parent.error("accessories", "expected an array, got " + json_type_name(*v));
        return;
    }
    for (std::size_t i = 0; i < v->size(); ++i) {
        const std::string path = element_path(parent.path_of("accessories"), i);
        Accessory a;
        if ((*v)[i].is_string()) {
            a.expression = (*v)[i].get<std::string>();
        } else {
            JsonFields fields((*v)[i], path, problems);
            if (!fields.text("expression", a.expression) && (*v)[i].is_object())
                problems.push_back({ProblemSeverity::Error, path, "missing \"expression\""});
            fields.text("name", a.name);
            fields.choice("reduce", a.reduce);
            fields.choice("over", a.over);
            fields.finish();
        }
        out.push_back(a);
    }
}

void read_section_phases(JsonFields& fields, int& transient, int& recorded) {
    fields.whole_number("transient_sections", transient);
    fields.whole_number("recorded_sections", recorded);
}

void read_lyapunov(JsonFields& fields, LyapunovSettings& s) {
    fields.choice("exponents", s.mode);
    fields.number("transient_time", s.transient_time);
    fields.number("averaging_time", s.averaging_time);
    fields.number("renormalization_interval", s.renormalization_interval);
    fields.number("convergence_tolerance", s.convergence_tolerance);
}

// "key": [a, b], two numbers.
void read_number_pair(JsonFields& fields, const std::string& key, double& a, double& b) {
    const json* v = fields.value(key);
    if (!v) return;
    if (!v->is_array() || v->size() != 2 || !(*v)[0].is_number() || !(*v)[1].is_number())
        return fields.error(key, "expected two numbers [from, to], got " + v->dump());
    a = (*v)[0].get<double>();
    b = (*v)[1].get<double>();
}

// "trajectories": [[x, y], ...], the starting points of the trajectories a phase plane draws.
void read_points(JsonFields& fields, const std::string& key, std::vector<std::pair<double, double>>& out,
                 Problems& problems) {
    const json* v = fields.value(key);
    if (!v) return;
    if (!v->is_array())
        return fields.error(key, "expected an array of [x, y] points, got " + json_type_name(*v));
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json& point = (*v)[i];
        if (point.is_array() && point.size() == 2 && point[0].is_number() && point[1].is_number())
            out.emplace_back(point[0].get<double>(), point[1].get<double>());
        else
            problems.push_back({ProblemSeverity::Error, element_path(fields.path_of(key), i),
                                "expected a point [x, y], got " + point.dump()});
    }
}

void read_phase_plane(JsonFields& fields, PhasePlaneSettings& s, Problems& problems) {
    fields.text("x", s.x);
    fields.text("y", s.y);
    read_number_pair(fields, "x_range", s.x_from, s.x_to);
    read_number_pair(fields, "y_range", s.y_from, s.y_to);
    fields.whole_number("grid", s.grid);
    fields.whole_number("arrows", s.arrows);
    fields.number("t_end", s.t_end);
    read_named_numbers(fields, "fixed", s.fixed, problems);
    read_points(fields, "trajectories", s.starts, problems);
    if (const json* slider = fields.value("slider")) {
        JsonFields sf(*slider, fields.path_of("slider"), problems);
        if (!sf.text("parameter", s.slider)) sf.error("parameter", "the slider names a parameter");
        read_number_pair(sf, "range", s.slider_from, s.slider_to);
        sf.finish();
    }
}

// "orbits": {"refine": true, "max_period": 8, "period_tolerance": 1e-6, "max_iterations": 8,
// "tolerance": 1e-9}
void read_orbit_refinement(JsonFields& fields, OrbitRefinementSettings& s, Problems& problems) {
    const json* v = fields.value("orbits");
    if (!v) return;
    JsonFields of(*v, fields.path_of("orbits"), problems);
    of.boolean("refine", s.refine);
    of.whole_number("max_period", s.max_period);
    of.number("period_tolerance", s.period_tolerance);
    of.whole_number("max_iterations", s.max_iterations);
    of.number("tolerance", s.tolerance);
    of.finish();
}

void read_analysis_settings(JsonFields& fields, Study& study, Problems& problems) {
    switch (study.analysis) {
    case AnalysisKind::Bifurcation: {
        auto& s = study.bifurcation;
        read_section(fields, s.section, problems);
        read_section_phases(fields, s.transient_sections, s.recorded_sections);
        read_recorded(fields, s.record, problems);
        fields.boolean("continuation", s.continuation);
        read_orbit_refinement(fields, s.orbits, problems);
        break;
    }
    case AnalysisKind::Lyapunov:
        read_lyapunov(fields, study.lyapunov);
        break;
    case AnalysisKind::ParameterMap: {
        auto& s = study.map;
        read_section(fields, s.section, problems);
        read_section_phases(fields, s.transient_sections, s.recorded_sections);
        fields.boolean("detect_period", s.detect_period);
        read_period_detection(fields, s.period, problems);
        fields.boolean("largest_exponent", s.largest_exponent);
        fields.number("renormalization_interval", s.renormalization_interval);
        read_accessories(fields, s.accessories, problems);
        fields.boolean("count_events", s.count_events);
        break;
    }
    case AnalysisKind::Basins: {
        auto& s = study.basins;
        read_section(fields, s.section, problems);
        read_section_phases(fields, s.transient_sections, s.recorded_sections);
        read_period_detection(fields, s.period, problems);
        fields.number("match_tolerance", s.match_tolerance);
        fields.whole_number("max_attractors", s.max_attractors);
        break;
    }
    case AnalysisKind::Trajectory: {
        auto& s = study.trajectory;
        fields.number("t_end", s.t_end);
        fields.whole_number("output_count", s.output_count);
        if (const json* times = fields.value("times")) {
            if (!times->is_array()) fields.error("times", "expected an array of numbers");
            for (std::size_t i = 0; times->is_array() && i < times->size(); ++i) {
                if ((*times)[i].is_number())
                    s.times.push_back((*times)[i].get<double>());
                else
                    problems.push_back({ProblemSeverity::Error, element_path(fields.path_of("times"), i),
                                        "expected a number, got " + json_type_name((*times)[i])});
            }
        }
        read_texts(fields, "record", s.record, problems);
        break;
    }
    case AnalysisKind::PhasePlane:
        read_phase_plane(fields, study.phase_plane, problems);
        break;
    }
}

void read_analysis(JsonFields& root, Study& study, Problems& problems) {
    const json* v = root.value("analysis");
    if (!v) {
        problems.push_back(
            {ProblemSeverity::Error, "analysis",
             "missing analysis: {\"kind\": one of " + enum_name_list<AnalysisKind>() + ", ...}"});
        return;
    }
    JsonFields fields(*v, "analysis", problems);
    if (!fields.has("kind")) {
        if (v->is_object())
            fields.error("kind",
                         "missing the analysis kind; expected one of " + enum_name_list<AnalysisKind>());
        return;
    }
    if (!fields.choice("kind", study.analysis)) return;
    read_analysis_settings(fields, study, problems);
    fields.finish();
}

// 1e-9, or {"y1": 1e-9, "*": 1e-6} where "*" sets the value of the states not named.
void read_tolerance(JsonFields& solver, const std::string& key, Tolerance& tolerance, Problems& problems) {
    const json* v = solver.value(key);
    if (!v) return;
    if (v->is_number()) {
        tolerance.all = v->get<double>();
        return;
    }
    if (!v->is_object()) {
        solver.error(key, "expected a number or an object of state: number pairs, got " + json_type_name(*v));
        return;
    }
    for (const auto& [name, value] : v->items()) {
        if (!value.is_number()) {
            problems.push_back({ProblemSeverity::Error, member_path(solver.path_of(key), name),
                                "expected a number, got " + json_type_name(value)});
        } else if (name == "*") {
            tolerance.all = value.get<double>();
        } else {
            tolerance.per_state.emplace_back(name, value.get<double>());
        }
    }
}

void read_solver(JsonFields& root, Study& study, Problems& problems) {
    const json* v = root.value("solver");
    if (!v) return;
    JsonFields fields(*v, "solver", problems);
    auto& s = study.solver;
    fields.choice("method", s.method);
    read_tolerance(fields, "rtol", s.rtol, problems);
    read_tolerance(fields, "atol", s.atol, problems);
    fields.number("initial_step", s.initial_step);
    fields.number("min_step", s.min_step);
    fields.number("max_step", s.max_step);
    fields.number("max_growth", s.max_growth);
    fields.number("min_shrink", s.min_shrink);
    fields.whole_number("max_steps", s.max_steps);
    fields.number("bound", s.bound);
    fields.finish();
}

void read_schema_version(JsonFields& root, Study& study, Problems& problems) {
    if (!root.has("bifscope_study")) {
        problems.push_back({ProblemSeverity::Error, "bifscope_study",
                            "missing schema version: a study file starts with {\"bifscope_study\": " +
                                std::to_string(current_schema_version) + ", ...}"});
        return;
    }
    if (!root.whole_number("bifscope_study", study.schema_version)) return;
    if (study.schema_version < 1)
        root.error("bifscope_study", "unknown schema version " + std::to_string(study.schema_version));
    else if (study.schema_version > current_schema_version)
        problems.push_back({ProblemSeverity::Warning, "bifscope_study",
                            "written for schema version " + std::to_string(study.schema_version) +
                                "; this Bifscope reads version " + std::to_string(current_schema_version) +
                                " and ignores what it does not know"});
}

// Every member path of every object in the file, arrays not entered: what the file gave.
void collect_given(const json& object, const std::string& path, std::set<std::string>& given) {
    if (!object.is_object()) return;
    for (const auto& [key, value] : object.items()) {
        const std::string member = member_path(path, key);
        given.insert(member);
        collect_given(value, member, given);
    }
}

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 3, column 5: ".
std::string json_error_text(const std::string& what) {
    const auto bracket = what.find("] ");
    return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

} // namespace

StudyReadResult read_study_json(std::string_view json_text) {
    StudyReadResult result;
    json root;
    try {
        root = json::parse(json_text.begin(), json_text.end());
    } catch (const json::exception& e) { // parse_error, and out_of_range for a number like 1e999
        result.problems.push_back(
            {ProblemSeverity::Error, "", "not valid JSON: " + json_error_text(e.what())});
        return result;
    }
    Study study;
    JsonFields fields(root, "", result.problems);
    if (!root.is_object()) return result;
    read_schema_version(fields, study, result.problems);
    fields.text("title", study.title);
    fields.text("description", study.description);
    read_model(fields, study, result.problems);
    read_named_numbers(fields, "parameters", study.parameters, result.problems);
    read_named_numbers(fields, "initial", study.initial, result.problems);
    fields.number("t0", study.t0);
    read_sweep(fields, study, result.problems);
    read_analysis(fields, study, result.problems);
    read_solver(fields, study, result.problems);
    fields.choice("precision", study.precision);
    fields.choice("backend", study.backend);
    read_gpus(fields, study.gpus, result.problems);
    // The continuation branches drawn over the study's result: engine/continuation/saved_branch.h
    // reads them.
    fields.value("branches");
    fields.finish();
    study.given.emplace();
    collect_given(root, "", *study.given);
    result.study = std::move(study);
    return result;
}

StudyReadResult read_study_file(const std::string& path) {
    const model::InputFile file = model::read_input_file(path);
    if (!file.text) {
        StudyReadResult result;
        result.problems.push_back(
            {ProblemSeverity::Error, "", "cannot read study file '" + path + "': " + file.failure});
        return result;
    }
    return read_study_json(*file.text);
}

} // namespace bif::study
