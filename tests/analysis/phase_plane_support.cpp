#include "phase_plane_support.h"

#include "engine/study/study_json.h"

namespace phase_plane_test {

namespace {

// The model text as a JSON string (the models here hold no other characters to escape).
std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (char c : text)
        out += c == '\n' ? std::string("\\n") : c == '"' ? std::string("\\\"") : std::string(1, c);
    return out + "\"";
}

} // namespace

std::string study_json(const std::string& model_text, const std::string& analysis_keys,
                       const std::string& parameters) {
    return "{\"bifscope_study\": 1, \"model\": {\"text\": " + json_string(model_text) +
           "}, \"parameters\": " + parameters + ", \"analysis\": {\"kind\": \"phase_plane\"" +
           (analysis_keys.empty() ? "" : ", " + analysis_keys) + "}}";
}

std::shared_ptr<const bif::study::ResolvedStudy> resolve(const std::string& json, std::string* why) {
    const auto read = bif::study::read_study_json(json);
    std::string problems;
    for (const auto& p : read.problems)
        problems += p.format() + "\n";
    if (read.study && !bif::study::has_errors(read.problems)) {
        auto resolved = bif::study::resolve_study(*read.study, ".");
        for (const auto& p : resolved.problems)
            problems += p.format() + "\n";
        if (why) *why = problems;
        return resolved.resolved;
    }
    if (why) *why = problems;
    return nullptr;
}

} // namespace phase_plane_test
