#include "engine/cuda/errors.h"

namespace bif::cuda {

CudaError::CudaError(int code, std::string error_name, const std::string& description, std::string call,
                     std::string location)
    : std::runtime_error(call + " failed at " + location + ": " + error_name + " (" + std::to_string(code) +
                         "): " + description),
      code_(code), error_name_(std::move(error_name)), call_(std::move(call)),
      location_(std::move(location)) {}

NvrtcError::NvrtcError(int code, const std::string& error_name, const std::string& call,
                       const std::string& location)
    : std::runtime_error(call + " failed at " + location + ": " + error_name + " (" + std::to_string(code) +
                         ")"),
      code_(code) {}

CompileError::CompileError(const std::string& summary, std::string log,
                           std::vector<CompileDiagnostic> diagnostics)
    : std::runtime_error(summary), log_(std::move(log)), diagnostics_(std::move(diagnostics)) {}

} // namespace bif::cuda
