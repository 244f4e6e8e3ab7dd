// Shared helpers of the CUDA tests: test files read from the source tree, fresh cache folders, and
// the NVRTC program that runs contract_kernel.cuh on a model type.
#pragma once

#include "engine/cuda/compile_request.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace bif::cuda::testing {

inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string test_file(const std::string& name) {
    return read_text(std::filesystem::path(BIFSCOPE_SOURCE_DIR) / "tests" / "cuda" / name);
}

// An empty folder of its own under the system's temporary folder.
inline std::filesystem::path fresh_directory(const std::string& tag) {
    static int counter = 0;
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() /
        ("bifscope-cuda-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir);
    return dir;
}

// model source (defining `model_type`) + contract_kernel.cuh + its instantiation for model_type.
inline CompileRequest contract_request(const std::string& model_source, const std::string& model_type) {
    CompileRequest request;
    request.parts.push_back({"model", model_source});
    request.parts.push_back({"contract_kernel", test_file("contract_kernel.cuh")});
    request.name_expressions.push_back("contract_kernel<" + model_type + ">");
    return request;
}

} // namespace bif::cuda::testing
