#include "engine/continuation/saved_branch.h"
#include "engine/study/json_fields.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace bif::cont {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using study::JsonFields;
using study::Problem;
using study::Problems;
using study::ProblemSeverity;

const char* const branches_key = "branches";

// JSON has no NaN or infinity: a value that is not finite is written as null and read back as NaN.
ojson number_json(double v) {
    return std::isfinite(v) ? ojson(v) : ojson(nullptr);
}

ojson point_json(const SavedBranchPoint& p, SavedBranchKind kind) {
    ojson out = ojson::object();
    if (kind != SavedBranchKind::Points) out["parameter"] = number_json(p.parameter);
    if (kind == SavedBranchKind::Curve) out["second"] = number_json(p.second);
    ojson state = ojson::array();
    for (double v : p.state)
        state.push_back(number_json(v));
    out["state"] = std::move(state);
    out["stable"] = p.stable;
    if (!p.label.empty()) out["label"] = p.label;
    if (!p.details.empty()) out["details"] = p.details;
    return out;
}

ojson branch_json(const SavedBranch& b) {
    ojson out = ojson::object();
    out["name"] = b.name;
    out["kind"] = name_of(b.kind);
    if (!b.parameter.empty()) out["parameter"] = b.parameter;
    if (!b.second_parameter.empty()) out["second_parameter"] = b.second_parameter;
    out["states"] = b.states;
    if (b.seed) out["seed"] = ojson::parse(study::write_equilibrium_study_json(*b.seed));
    ojson points = ojson::array();
    for (const auto& p : b.points)
        points.push_back(point_json(p, b.kind));
    out["points"] = std::move(points);
    return out;
}

std::size_t error_count(const Problems& problems) {
    std::size_t n = 0;
    for (const auto& p : problems)
        n += p.severity == ProblemSeverity::Error;
    return n;
}

// A number, or null for a value that was not finite when written.
bool read_number_or_null(const json& value, double& out) {
    if (value.is_null()) return out = std::numeric_limits<double>::quiet_NaN(), true;
    if (!value.is_number()) return false;
    out = value.get<double>();
    return true;
}

void read_numbers(JsonFields& fields, const std::string& key, std::vector<double>& out, Problems& problems) {
    const json* v = fields.value(key);
    if (!v) return fields.error(key, "missing");
    if (!v->is_array())
        return fields.error(key, "expected an array of numbers, got " + study::json_type_name(*v));
    for (std::size_t i = 0; i < v->size(); ++i) {
        double x = 0.0;
        if (!read_number_or_null((*v)[i], x)) {
            problems.push_back({ProblemSeverity::Error, study::element_path(fields.path_of(key), i),
                                "expected a number, got " + study::json_type_name((*v)[i])});
            return;
        }
        out.push_back(x);
    }
}

void read_required_number(JsonFields& fields, const std::string& key, double& out) {
    const json* v = fields.value(key);
    if (!v) return fields.error(key, "missing");
    if (!read_number_or_null(*v, out))
        fields.error(key, "expected a number, got " + study::json_type_name(*v));
}

SavedBranchPoint read_point(const json& value, const std::string& path, const SavedBranch& branch,
                            Problems& problems) {
    SavedBranchPoint p;
    JsonFields fields(value, path, problems);
    if (!value.is_object()) return p;
    if (branch.kind != SavedBranchKind::Points) read_required_number(fields, "parameter", p.parameter);
    if (branch.kind == SavedBranchKind::Curve) read_required_number(fields, "second", p.second);
    read_numbers(fields, "state", p.state, problems);
    if (fields.has("state") && p.state.size() != branch.states.size())
        fields.error("state", "has " + std::to_string(p.state.size()) + " values for the branch's " +
                                  std::to_string(branch.states.size()) + " states");
    fields.boolean("stable", p.stable);
    fields.text("label", p.label);
    fields.text("details", p.details);
    fields.finish();
    return p;
}

void read_names(JsonFields& fields, const std::string& key, std::vector<std::string>& out) {
    const json* v = fields.value(key);
    if (!v) return fields.error(key, "missing: the model's state names");
    if (!v->is_array())
        return fields.error(key, "expected an array of names, got " + study::json_type_name(*v));
    for (const json& name : *v) {
        if (!name.is_string()) return fields.error(key, "expected an array of names, got " + name.dump());
        out.push_back(name.get<std::string>());
    }
}

// The seed only lets "continue" go on: where it cannot be read the branch is still drawn, and its
// problems are warnings that say so.
void read_seed(const json& value, const std::string& path, SavedBranch& branch, Problems& problems) {
    study::EquilibriumStudyReadResult read = study::read_equilibrium_study_json(value.dump());
    const bool usable = read.study && !study::has_errors(read.problems);
    for (auto& p : read.problems) {
        p.path = study::member_path(path, p.path);
        if (p.severity == ProblemSeverity::Error) {
            p.severity = ProblemSeverity::Warning;
            p.message += " (the branch is drawn, but cannot be continued from its settings)";
        }
        problems.push_back(std::move(p));
    }
    if (usable) branch.seed = std::move(*read.study);
}

std::optional<SavedBranch> read_branch(const json& value, const std::string& path, Problems& problems) {
    const std::size_t errors_before = error_count(problems);
    SavedBranch b;
    JsonFields fields(value, path, problems);
    if (!value.is_object()) {
        problems.push_back({ProblemSeverity::Error, path, "the branch cannot be read and is left out"});
        return std::nullopt;
    }
    if (!fields.text("name", b.name) && !fields.has("name")) fields.error("name", "missing");
    std::string kind;
    if (!fields.has("kind"))
        fields.error("kind", "missing: branch, curve or points");
    else if (fields.text("kind", kind)) {
        if (kind == "branch")
            b.kind = SavedBranchKind::Branch;
        else if (kind == "curve")
            b.kind = SavedBranchKind::Curve;
        else if (kind == "points")
            b.kind = SavedBranchKind::Points;
        else
            fields.error("kind", "unknown value '" + kind + "'; expected one of branch, curve, points");
    }
    fields.text("parameter", b.parameter);
    fields.text("second_parameter", b.second_parameter);
    if (b.kind != SavedBranchKind::Points && b.parameter.empty()) fields.error("parameter", "missing");
    if (b.kind == SavedBranchKind::Curve && b.second_parameter.empty())
        fields.error("second_parameter", "missing");
    read_names(fields, "states", b.states);
    if (const json* seed = fields.value("seed")) read_seed(*seed, fields.path_of("seed"), b, problems);
    const json* points = fields.value("points");
    if (!points)
        fields.error("points", "missing");
    else if (!points->is_array())
        fields.error("points", "expected an array, got " + study::json_type_name(*points));
    else if (error_count(problems) == errors_before) // the states are known: the points can be checked
        for (std::size_t i = 0; i < points->size(); ++i) {
            b.points.push_back(
                read_point((*points)[i], study::element_path(fields.path_of("points"), i), b, problems));
            if (error_count(problems) != errors_before) break; // one bad point is enough to say
        }
    fields.finish();
    if (error_count(problems) != errors_before) {
        problems.push_back(
            {ProblemSeverity::Error, path, "the branch '" + b.name + "' cannot be read and is left out"});
        return std::nullopt;
    }
    return b;
}

} // namespace

const char* name_of(SavedBranchKind kind) {
    switch (kind) {
    case SavedBranchKind::Branch:
        return "branch";
    case SavedBranchKind::Curve:
        return "curve";
    case SavedBranchKind::Points:
        return "points";
    }
    return "branch";
}

std::string with_saved_branches(std::string_view document_json, const std::vector<SavedBranch>& branches) {
    ojson root = ojson::parse(document_json.begin(), document_json.end(), nullptr, false);
    if (root.is_discarded() || !root.is_object())
        throw std::invalid_argument("the document is no JSON object: its branches cannot be added");
    root.erase(branches_key);
    if (!branches.empty()) {
        ojson list = ojson::array();
        for (const auto& b : branches)
            list.push_back(branch_json(b));
        root[branches_key] = ojson{{"version", saved_branches_version}, {"overlays", std::move(list)}};
    }
    return root.dump(2) + "\n";
}

SavedBranchesReadResult read_saved_branches(std::string_view document_json) {
    SavedBranchesReadResult result;
    const json root = json::parse(document_json.begin(), document_json.end(), nullptr, false);
    if (root.is_discarded() || !root.is_object() || !root.contains(branches_key)) return result;
    Problems& problems = result.problems;
    JsonFields fields(root[branches_key], branches_key, problems);
    if (!root[branches_key].is_object()) return result;
    int version = 0;
    if (!fields.has("version")) {
        fields.error("version", "missing: the branches start with {\"version\": " +
                                    std::to_string(saved_branches_version) + ", ...}");
        return result;
    }
    if (!fields.whole_number("version", version)) return result;
    if (version < 1) {
        fields.error("version", "unknown version " + std::to_string(version));
        return result;
    }
    if (version > saved_branches_version)
        problems.push_back({ProblemSeverity::Warning, fields.path_of("version"),
                            "written for version " + std::to_string(version) + "; this Bifscope reads " +
                                std::to_string(saved_branches_version) +
                                " and ignores what it does not know"});
    const json* list = fields.value("overlays");
    if (!list)
        fields.error("overlays", "missing");
    else if (!list->is_array())
        fields.error("overlays", "expected an array, got " + study::json_type_name(*list));
    else
        for (std::size_t i = 0; i < list->size(); ++i)
            if (auto b =
                    read_branch((*list)[i], study::element_path(fields.path_of("overlays"), i), problems))
                result.branches.push_back(std::move(*b));
    fields.finish();
    return result;
}

} // namespace bif::cont
