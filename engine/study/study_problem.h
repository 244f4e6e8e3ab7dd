// Problems found while reading or resolving a study: all of them are collected, each with the JSON
// path of the value at fault ("sweep[0].count", "analysis.section.period"; empty for the whole
// file) and one sentence saying what is wrong.
#pragma once

#include <string>
#include <vector>

namespace bif::study {

enum class ProblemSeverity { Warning, Error };

struct Problem {
    ProblemSeverity severity = ProblemSeverity::Error;
    std::string path;
    std::string message;

    // "error: sweep[0].count: must be at least 1, got 0"
    std::string format() const;
};

using Problems = std::vector<Problem>;

bool has_errors(const Problems& problems);

} // namespace bif::study
