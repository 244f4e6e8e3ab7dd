// What the subcommands that run a study share: reading the --backend value, printing a study's
// problems, and loading a study file resolved against its model.
#pragma once

#include "cli_commands.h"
#include "engine/model/input_file.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

namespace bif::cli {

inline std::optional<study::BackendChoice> parse_backend_choice(const std::string& v) {
    if (v == "auto") return study::BackendChoice::Auto;
    if (v == "cpu") return study::BackendChoice::Cpu;
    if (v == "cuda") return study::BackendChoice::Cuda;
    return std::nullopt;
}

// Prints "STUDY.json: error: sweep[0].count: must be at least 1, got 0"; returns whether any was an error.
inline bool print_problems(const study::Problems& problems, const std::string& file, std::ostream& err) {
    for (const auto& p : problems)
        err << file << ": " << p.format() << "\n";
    return study::has_errors(problems);
}

struct LoadedStudy {
    study::Study study; // as read, before resolving
    std::string base_directory;
    std::shared_ptr<const study::ResolvedStudy> resolved;
};

// Reads (a regular file under the input size limit) and resolves a study file, printing its problems.
// Returns Success with `loaded` filled, IoFailure or ModelErrors.
inline int load_resolved_study(const std::string& path, LoadedStudy& loaded, std::ostream& err) {
    const model::InputFile file = model::read_input_file(path);
    if (!file.text) {
        err << "bifscope-cli: cannot read " << path << ": " << file.failure << "\n";
        return IoFailure;
    }
    const study::StudyReadResult read = study::read_study_json(*file.text);
    bool errors = print_problems(read.problems, path, err);
    if (!read.study) return ModelErrors;
    loaded.study = *read.study;
    loaded.base_directory = std::filesystem::path(path).parent_path().string();
    const study::ResolveResult r = study::resolve_study(loaded.study, loaded.base_directory);
    errors = print_problems(r.problems, path, err) || errors;
    if (errors || !r.resolved) return ModelErrors;
    loaded.resolved = r.resolved;
    return Success;
}

} // namespace bif::cli
