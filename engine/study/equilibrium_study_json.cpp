#include "engine/model/input_file.h"
#include "engine/study/equilibrium_study.h"
#include "engine/study/json_fields.h"

namespace bif::study {

namespace {

using nlohmann::json;

constexpr const char* kinds =
    "'equilibria', 'continuation', 'curves', 'orbit_continuation' or 'orbit_curves'";

// {"name": number, ...} into ordered pairs.
void read_numbers(JsonFields& fields, const std::string& key,
                  std::vector<std::pair<std::string, double>>& out, Problems& problems) {
    const json* v = fields.value(key);
    if (!v) return;
    if (!v->is_object())
        return fields.error(key, "expected an object of name: number pairs, got " + json_type_name(*v));
    for (const auto& [name, value] : v->items()) {
        if (value.is_number())
            out.emplace_back(name, value.get<double>());
        else
            problems.push_back({ProblemSeverity::Error, member_path(fields.path_of(key), name),
                                "expected a number, got " + json_type_name(value)});
    }
}

// "box": {"x": [-30, 30], "*": [-10, 10]}
void read_box(JsonFields& fields, std::vector<StateRange>& out, Problems& problems) {
    const json* v = fields.value("box");
    if (!v) return;
    if (!v->is_object())
        return fields.error("box",
                            "expected an object of state: [lower, upper] pairs, got " + json_type_name(*v));
    for (const auto& [name, range] : v->items()) {
        if (!range.is_array() || range.size() != 2 || !range[0].is_number() || !range[1].is_number()) {
            problems.push_back({ProblemSeverity::Error, member_path(fields.path_of("box"), name),
                                "expected [lower, upper], got " + range.dump()});
            continue;
        }
        out.push_back({name, range[0].get<double>(), range[1].get<double>()});
    }
}

void read_direction(JsonFields& fields, ContinuationDirection& out) {
    std::string text;
    if (!fields.text("direction", text)) return;
    if (text == "up")
        out = ContinuationDirection::Up;
    else if (text == "down")
        out = ContinuationDirection::Down;
    else if (text == "both")
        out = ContinuationDirection::Both;
    else
        fields.error("direction", "unknown value '" + text + "'; expected one of 'up', 'down', 'both'");
}

// "start": {"x": 0, ...} (a state to correct), or "equilibria" (every equilibrium found in the box).
void read_start(JsonFields& fields, EquilibriumStudy& s, Problems& problems) {
    const json* v = fields.value("start");
    if (!v) return;
    if (v->is_string() && v->get<std::string>() == "equilibria") return;
    if (!v->is_object())
        return fields.error("start",
                            "expected an object of state: value pairs or \"equilibria\", got " + v->dump());
    for (const auto& [name, value] : v->items()) {
        if (value.is_number())
            s.start.emplace_back(name, value.get<double>());
        else
            problems.push_back({ProblemSeverity::Error, member_path(fields.path_of("start"), name),
                                "expected a number, got " + json_type_name(value)});
    }
}

// "orbit": {"kind": "map" | "stroboscopic" | "autonomous", ...}
void read_orbit(JsonFields& analysis, OrbitSpec& o, Problems& problems) {
    const json* v = analysis.value("orbit");
    if (!v) return analysis.error("orbit", "missing the orbit: {\"kind\": \"map\", \"k\": 1} or similar");
    JsonFields fields(*v, analysis.path_of("orbit"), problems);
    if (!v->is_object()) return fields.finish();
    std::string kind;
    if (!fields.text("kind", kind))
        fields.error("kind", "missing the orbit's kind: 'map', 'stroboscopic' or 'autonomous'");
    else if (kind == "map")
        o.kind = OrbitKind::Map;
    else if (kind == "stroboscopic")
        o.kind = OrbitKind::Stroboscopic;
    else if (kind == "autonomous")
        o.kind = OrbitKind::Autonomous;
    else
        fields.error("kind",
                     "unknown value '" + kind + "'; expected one of 'map', 'stroboscopic', 'autonomous'");
    if (o.kind != OrbitKind::Autonomous) fields.whole_number("k", o.k);
    if (o.kind == OrbitKind::Stroboscopic && !fields.text("forcing_period", o.forcing_period))
        fields.error("forcing_period", "missing the forcing period's formula (e.g. \"2*pi/omega\")");
    if (o.kind == OrbitKind::Autonomous && !fields.number("period", o.period))
        fields.error("period", "missing the guess of the orbit's period");
    if (o.kind != OrbitKind::Map) {
        fields.whole_number("segments", o.segments);
        fields.number("rtol", o.rtol);
        fields.number("atol", o.atol);
    }
    fields.whole_number("transient_periods", o.transient_periods);
    fields.finish();
}

void read_analysis(JsonFields& root, EquilibriumStudy& s, Problems& problems) {
    const json* v = root.value("analysis");
    if (!v) return problems.push_back({ProblemSeverity::Error, "analysis", "missing analysis"});
    JsonFields fields(*v, "analysis", problems);
    std::string kind;
    fields.text("kind", kind);
    if (kind == "equilibria")
        s.analysis = EquilibriumAnalysis::Equilibria;
    else if (kind == "continuation")
        s.analysis = EquilibriumAnalysis::Continuation;
    else if (kind == "curves")
        s.analysis = EquilibriumAnalysis::Curves;
    else if (kind == "orbit_continuation")
        s.analysis = EquilibriumAnalysis::OrbitContinuation;
    else if (kind == "orbit_curves")
        s.analysis = EquilibriumAnalysis::OrbitCurves;
    else
        return fields.error("kind", "not an equilibrium study; expected " + std::string(kinds));
    if (s.is_orbit()) {
        read_orbit(fields, s.orbit, problems);
        const json* start = fields.value("start");
        if (!start || start->is_string())
            fields.error("start", "an orbit needs a start state: {\"x\": 0.5, ...}");
    } else {
        read_box(fields, s.box, problems);
        fields.whole_number("starts", s.starts);
    }
    if (s.is_continuation()) {
        if (!fields.text("parameter", s.parameter) && v->is_object())
            fields.error("parameter", "missing the continued parameter's name");
        if (!fields.number("from", s.from)) fields.error("from", "missing the parameter range's start");
        if (!fields.number("to", s.to)) fields.error("to", "missing the parameter range's end");
        read_start(fields, s, problems);
        read_direction(fields, s.direction);
        fields.number("step", s.step);
        fields.number("min_step", s.min_step);
        fields.number("max_step", s.max_step);
        fields.whole_number("max_points", s.max_points);
    }
    if (s.has_second_parameter()) {
        if (!fields.text("second_parameter", s.second_parameter))
            fields.error("second_parameter", "missing the second parameter's name");
        if (!fields.number("second_from", s.second_from))
            fields.error("second_from", "missing the second parameter range's start");
        if (!fields.number("second_to", s.second_to))
            fields.error("second_to", "missing the second parameter range's end");
    }
    fields.finish();
}

} // namespace

std::optional<EquilibriumAnalysis> equilibrium_analysis_of(std::string_view json_text) {
    const json root = json::parse(json_text.begin(), json_text.end(), nullptr, false);
    if (!root.is_object() || !root.contains("analysis") || !root["analysis"].is_object()) return std::nullopt;
    const json& kind = root["analysis"].value("kind", json());
    if (kind == "equilibria") return EquilibriumAnalysis::Equilibria;
    if (kind == "continuation") return EquilibriumAnalysis::Continuation;
    if (kind == "curves") return EquilibriumAnalysis::Curves;
    if (kind == "orbit_continuation") return EquilibriumAnalysis::OrbitContinuation;
    if (kind == "orbit_curves") return EquilibriumAnalysis::OrbitCurves;
    return std::nullopt;
}

EquilibriumStudyReadResult read_equilibrium_study_json(std::string_view json_text) {
    EquilibriumStudyReadResult result;
    const json root = json::parse(json_text.begin(), json_text.end(), nullptr, false);
    if (root.is_discarded()) {
        result.problems.push_back({ProblemSeverity::Error, "", "not valid JSON"});
        return result;
    }
    JsonFields fields(root, "", result.problems);
    if (!root.is_object()) return result;
    EquilibriumStudy s;
    if (!fields.whole_number("bifscope_study", s.schema_version))
        result.problems.push_back({ProblemSeverity::Error, "bifscope_study", "missing schema version"});
    else if (s.schema_version > current_schema_version)
        result.problems.push_back(
            {ProblemSeverity::Warning, "bifscope_study",
             "written for a newer schema; what this Bifscope does not know is ignored"});
    fields.text("title", s.title);
    fields.text("description", s.description);
    if (const json* m = fields.value("model")) {
        JsonFields model(*m, "model", result.problems);
        model.text("path", s.model.path);
        model.text("text", s.model.text);
        model.finish();
    } else {
        result.problems.push_back({ProblemSeverity::Error, "model",
                                   "missing model: give {\"path\": \"file.ode\"} or {\"text\": \"...\"}"});
    }
    read_numbers(fields, "parameters", s.parameters, result.problems);
    read_analysis(fields, s, result.problems);
    fields.finish();
    result.study = std::move(s);
    return result;
}

std::string write_equilibrium_study_json(const EquilibriumStudy& s) {
    json root = json::object();
    root["bifscope_study"] = s.schema_version;
    if (!s.title.empty()) root["title"] = s.title;
    if (!s.description.empty()) root["description"] = s.description;
    root["model"] = s.model.path.empty() ? json{{"text", s.model.text}} : json{{"path", s.model.path}};
    json parameters = json::object();
    for (const auto& [name, value] : s.parameters)
        parameters[name] = value;
    if (!parameters.empty()) root["parameters"] = parameters;
    json analysis = json::object();
    analysis["kind"] = name_of(s.analysis);
    if (s.is_orbit()) {
        json orbit = {{"kind", name_of(s.orbit.kind)}};
        if (s.orbit.kind != OrbitKind::Autonomous) orbit["k"] = s.orbit.k;
        if (s.orbit.kind == OrbitKind::Stroboscopic) orbit["forcing_period"] = s.orbit.forcing_period;
        if (s.orbit.kind == OrbitKind::Autonomous) orbit["period"] = s.orbit.period;
        if (s.orbit.kind != OrbitKind::Map) {
            orbit["segments"] = s.orbit.segments;
            orbit["rtol"] = s.orbit.rtol;
            orbit["atol"] = s.orbit.atol;
        }
        orbit["transient_periods"] = s.orbit.transient_periods;
        analysis["orbit"] = orbit;
    } else {
        json box = json::object();
        for (const StateRange& r : s.box)
            box[r.state] = json::array({r.lower, r.upper});
        analysis["box"] = box;
        analysis["starts"] = s.starts;
    }
    if (s.is_continuation()) {
        analysis["parameter"] = s.parameter;
        analysis["from"] = s.from;
        analysis["to"] = s.to;
        if (s.start.empty()) {
            analysis["start"] = "equilibria";
        } else {
            json start = json::object();
            for (const auto& [name, value] : s.start)
                start[name] = value;
            analysis["start"] = start;
        }
        analysis["direction"] = name_of(s.direction);
        analysis["step"] = s.step;
        analysis["min_step"] = s.min_step;
        analysis["max_step"] = s.max_step;
        analysis["max_points"] = s.max_points;
    }
    if (s.has_second_parameter()) {
        analysis["second_parameter"] = s.second_parameter;
        analysis["second_from"] = s.second_from;
        analysis["second_to"] = s.second_to;
    }
    root["analysis"] = analysis;
    return root.dump(2) + "\n";
}

const char* name_of(EquilibriumAnalysis v) {
    return v == EquilibriumAnalysis::Equilibria     ? "equilibria"
           : v == EquilibriumAnalysis::Continuation ? "continuation"
           : v == EquilibriumAnalysis::Curves       ? "curves"
           : v == EquilibriumAnalysis::OrbitCurves  ? "orbit_curves"
                                                    : "orbit_continuation";
}

const char* name_of(OrbitKind v) {
    return v == OrbitKind::Map ? "map" : v == OrbitKind::Stroboscopic ? "stroboscopic" : "autonomous";
}

const char* name_of(ContinuationDirection v) {
    return v == ContinuationDirection::Up ? "up" : v == ContinuationDirection::Down ? "down" : "both";
}

} // namespace bif::study
