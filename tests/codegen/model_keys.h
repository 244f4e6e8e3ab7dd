// The keys of every model the codegen tests run over: the builtin models, then the bundled
// resources/models/*.ode and the tests' own tests/codegen/models/*.ode, in sorted order.
#pragma once

#include "tests/codegen/test_models.h"

#include <algorithm>
#include <filesystem>

namespace bif::codegen_test {

inline std::vector<std::string> ode_files_in(const std::filesystem::path& dir) {
    std::vector<std::string> files;
    if (!std::filesystem::is_directory(dir)) return files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() == ".ode") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

inline std::vector<std::string> ode_model_keys() {
    std::vector<std::string> keys = ode_files_in(BIFSCOPE_MODELS_DIR);
    const std::vector<std::string> own =
        ode_files_in(std::filesystem::path(BIFSCOPE_SOURCE_DIR) / "tests/codegen/models");
    keys.insert(keys.end(), own.begin(), own.end());
    return keys;
}

inline std::vector<std::string> all_model_keys() {
    std::vector<std::string> keys = builtin_model_keys();
    const std::vector<std::string> files = ode_model_keys();
    keys.insert(keys.end(), files.begin(), files.end());
    return keys;
}

} // namespace bif::codegen_test
