// Reading the fields of one JSON object with its path, collecting problems instead of throwing
// (engine-internal helper of study_json_read.cpp).
//
// Every getter marks its key as known; finish() warns about the keys nobody asked for, so that a
// misspelt key is reported while a file from a newer Bifscope still reads.
#pragma once

#include "engine/study/enum_names.h"
#include "engine/study/study_problem.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace bif::study {

std::string json_type_name(const nlohmann::json& value);
std::string member_path(const std::string& object_path, const std::string& key);
std::string element_path(const std::string& array_path, std::size_t index);

class JsonFields {
  public:
    // `object` must outlive the reader. A value that is not an object is reported once and every
    // getter then leaves its output at the default.
    JsonFields(const nlohmann::json& object, std::string path, Problems& problems);

    const std::string& path() const { return path_; }
    std::string path_of(const std::string& key) const { return member_path(path_, key); }
    bool has(const std::string& key) const;

    // Each returns true when the key was present and the value had the right type.
    bool number(const std::string& key, double& out);
    bool whole_number(const std::string& key, int& out);
    bool whole_number(const std::string& key, std::int64_t& out);
    bool boolean(const std::string& key, bool& out);
    bool text(const std::string& key, std::string& out);
    template <class E>
    bool choice(const std::string& key, E& out);

    // The raw value (marked known), or nullptr when absent.
    const nlohmann::json* value(const std::string& key);
    void error(const std::string& key, const std::string& message);

    // Warns about keys that no getter asked for.
    void finish();

  private:
    const nlohmann::json* expect(const std::string& key, bool ok_type, const char* wanted);

    const nlohmann::json& object_;
    std::string path_;
    Problems& problems_;
    bool is_object_ = false;
    std::set<std::string> known_;
};

template <class E>
bool JsonFields::choice(const std::string& key, E& out) {
    std::string spelled;
    if (!text(key, spelled)) return false;
    if (auto v = enum_from_name<E>(spelled)) {
        out = *v;
        return true;
    }
    error(key, "unknown value '" + spelled + "'; expected one of " + enum_name_list<E>());
    return false;
}

} // namespace bif::study
