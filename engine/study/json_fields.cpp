#include "engine/study/json_fields.h"

#include <cmath>
#include <limits>

namespace bif::study {

std::string json_type_name(const nlohmann::json& value) {
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
        return "a number";
    default:
        return "an unsupported value";
    }
}

std::string member_path(const std::string& object_path, const std::string& key) {
    return object_path.empty() ? key : object_path + "." + key;
}

std::string element_path(const std::string& array_path, std::size_t index) {
    return array_path + "[" + std::to_string(index) + "]";
}

JsonFields::JsonFields(const nlohmann::json& object, std::string path, Problems& problems)
    : object_(object), path_(std::move(path)), problems_(problems), is_object_(object.is_object()) {
    if (!is_object_)
        problems_.push_back(
            {ProblemSeverity::Error, path_, "expected an object, got " + json_type_name(object)});
}

bool JsonFields::has(const std::string& key) const {
    return is_object_ && object_.contains(key);
}

const nlohmann::json* JsonFields::value(const std::string& key) {
    if (!has(key)) return nullptr;
    known_.insert(key);
    return &object_.at(key);
}

void JsonFields::error(const std::string& key, const std::string& message) {
    problems_.push_back({ProblemSeverity::Error, path_of(key), message});
}

const nlohmann::json* JsonFields::expect(const std::string& key, bool ok_type, const char* wanted) {
    const nlohmann::json* v = value(key);
    if (v && !ok_type) {
        error(key, std::string("expected ") + wanted + ", got " + json_type_name(*v));
        return nullptr;
    }
    return v;
}

bool JsonFields::number(const std::string& key, double& out) {
    const nlohmann::json* v = value(key);
    if (!v) return false;
    if (!v->is_number()) {
        error(key, "expected a number, got " + json_type_name(*v));
        return false;
    }
    out = v->get<double>();
    return true;
}

bool JsonFields::whole_number(const std::string& key, std::int64_t& out) {
    const nlohmann::json* v = value(key);
    if (!v) return false;
    if (!v->is_number()) {
        error(key, "expected a whole number, got " + json_type_name(*v));
        return false;
    }
    if (v->is_number_integer()) {
        out = v->get<std::int64_t>();
        return true;
    }
    const double d = v->get<double>();
    if (std::floor(d) != d || std::fabs(d) > 9.0e18) {
        error(key, "expected a whole number, got " + v->dump());
        return false;
    }
    out = static_cast<std::int64_t>(d);
    return true;
}

bool JsonFields::whole_number(const std::string& key, int& out) {
    std::int64_t wide = 0;
    if (!whole_number(key, wide)) return false;
    if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
        error(key, "the number " + std::to_string(wide) + " is out of range");
        return false;
    }
    out = static_cast<int>(wide);
    return true;
}

bool JsonFields::boolean(const std::string& key, bool& out) {
    const nlohmann::json* v = value(key);
    if (!v) return false;
    if (!v->is_boolean()) {
        error(key, "expected true or false, got " + json_type_name(*v));
        return false;
    }
    out = v->get<bool>();
    return true;
}

bool JsonFields::text(const std::string& key, std::string& out) {
    const nlohmann::json* v = expect(key, has(key) && object_.at(key).is_string(), "a string");
    if (!v) return false;
    out = v->get<std::string>();
    return true;
}

void JsonFields::finish() {
    if (!is_object_) return;
    for (const auto& [key, v] : object_.items())
        if (!known_.count(key))
            problems_.push_back({ProblemSeverity::Warning, path_of(key), "unknown key, ignored"});
}

} // namespace bif::study
