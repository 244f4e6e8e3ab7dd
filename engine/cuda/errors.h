// The typed exceptions of the CUDA backend. Loading never throws (a library that is missing is a
// reported state, not an error); these are for failures after a successful load:
//   CudaUnavailable  an operation needed the driver or NVRTC, which could not be loaded (reason inside);
//   CudaError        a driver API call failed (the call, file:line, the error's name and text);
//   NvrtcError       an NVRTC API call failed outside compilation proper (out of memory, bad option);
//   CompileError     NVRTC rejected the source: the log, with lines that point into a named part of
//                    the program (the generated model, say) followed by that line of the part's text.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace bif::cuda {

class CudaUnavailable : public std::runtime_error {
  public:
    explicit CudaUnavailable(const std::string& reason) : std::runtime_error(reason) {}
};

class CudaError : public std::runtime_error {
  public:
    CudaError(int code, std::string error_name, const std::string& description, std::string call,
              std::string location);

    int code() const noexcept { return code_; }
    const std::string& error_name() const noexcept { return error_name_; } // e.g. CUDA_ERROR_OUT_OF_MEMORY
    const std::string& call() const noexcept { return call_; }             // e.g. cuMemAlloc_v2
    const std::string& location() const noexcept { return location_; }     // file:line of the call

  private:
    int code_;
    std::string error_name_;
    std::string call_;
    std::string location_;
};

class NvrtcError : public std::runtime_error {
  public:
    NvrtcError(int code, const std::string& error_name, const std::string& call, const std::string& location);

    int code() const noexcept { return code_; }

  private:
    int code_;
};

// One line of an NVRTC log that points into a part of the program.
struct CompileDiagnostic {
    std::string part;      // the part's name, e.g. "model" (see CompileRequest)
    int line = 0;          // 1-based line within that part
    std::string message;   // the log line as NVRTC wrote it
    std::string line_text; // that line of the part's text ("" when out of range)
};

class CompileError : public std::runtime_error {
  public:
    CompileError(const std::string& summary, std::string log, std::vector<CompileDiagnostic> diagnostics);

    const std::string& log() const noexcept { return log_; } // NVRTC's log, unchanged
    const std::vector<CompileDiagnostic>& diagnostics() const noexcept { return diagnostics_; }

  private:
    std::string log_;
    std::vector<CompileDiagnostic> diagnostics_;
};

} // namespace bif::cuda
