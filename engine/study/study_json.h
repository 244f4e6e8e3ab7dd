// The study file: JSON with a schema version, `{"bifscope_study": 1, ...}`. See
// resources/studies/README.md for every key with its default.
//
// Reading checks the shape (types, known spellings) and collects every problem with its JSON path;
// unknown keys are warnings, so files from a newer Bifscope still read. Values that need the model
// (names, formulas) and value ranges are checked by resolve_study (engine/study/resolved_study.h).
#pragma once

#include "engine/study/study.h"
#include "engine/study/study_problem.h"

#include <optional>
#include <string>
#include <string_view>

namespace bif::study {

struct StudyReadResult {
    // Present whenever the text is a JSON object, even with errors: a value at fault keeps its
    // default, so that resolving the study still finds the problems elsewhere. Run it only when
    // has_errors(problems) is false.
    std::optional<Study> study;
    Problems problems;
};

StudyReadResult read_study_json(std::string_view json_text);
// A missing or unreadable file is a problem with an empty path.
StudyReadResult read_study_file(const std::string& path);

// Pretty JSON (two-space indent, fixed key order, trailing newline) that read_study_json reads back
// to an equal Study. Only the active analysis's settings are written.
std::string write_study_json(const Study& study);

} // namespace bif::study
