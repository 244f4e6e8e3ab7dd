// NVRTC, CUDA's run-time compiler, loaded at run time. Like the driver: loading never throws,
// prints or exits, and unavailable_reason() says in one line why NVRTC cannot be used.
//
// Search order: the toolkit's library folder seen at build time (BIFSCOPE_CUDA_LIBRARY_HINT), then
// $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64, then the loader's default search; in
// each place libnvrtc.so, libnvrtc.so.13, .12, .11.
#pragma once

#include "engine/cuda/shared_library.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bif::cuda {

namespace nvrtc {

using nvrtcResult = int;
struct _nvrtcProgram;
using nvrtcProgram = _nvrtcProgram*;
inline constexpr nvrtcResult NVRTC_SUCCESS = 0;
inline constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;

struct EntryPoints {
    const char* (*nvrtcGetErrorString)(nvrtcResult result);
    nvrtcResult (*nvrtcVersion)(int* major, int* minor);
    nvrtcResult (*nvrtcGetNumSupportedArchs)(int* count);
    nvrtcResult (*nvrtcGetSupportedArchs)(int* architectures);
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram* program, const char* source, const char* name,
                                      int header_count, const char* const* headers,
                                      const char* const* include_names);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram* program);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram program, int option_count, const char* const* options);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram program, std::size_t* size);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram program, char* log);
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram program, std::size_t* size);
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram program, char* ptx);
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram program, std::size_t* size);
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram program, char* cubin);
    nvrtcResult (*nvrtcAddNameExpression)(nvrtcProgram program, const char* name_expression);
    nvrtcResult (*nvrtcGetLoweredName)(nvrtcProgram program, const char* name_expression,
                                       const char** lowered);
};

} // namespace nvrtc

class NvrtcLibrary {
  public:
    // NVRTC 11.1 added compilation straight to machine code (nvrtcGetCUBIN).
    static constexpr int minimum_version = 11010;

    // The process-wide NVRTC, searched for once on first use (thread-safe).
    static const NvrtcLibrary& instance() noexcept;
    // The candidates instance() tries, in order.
    static std::vector<std::string> default_candidates();
    // A separate load from the given candidates; tests use it to see the reasons.
    static std::unique_ptr<NvrtcLibrary> load(const std::vector<std::string>& candidates) noexcept;

    NvrtcLibrary(const NvrtcLibrary&) = delete;
    NvrtcLibrary& operator=(const NvrtcLibrary&) = delete;

    bool available() const noexcept { return unavailable_reason_.empty(); }
    const std::string& unavailable_reason() const noexcept { return unavailable_reason_; }
    const std::string& path() const noexcept;         // the candidate that loaded ("" when none)
    int version() const noexcept { return version_; } // 1000*major + 10*minor, e.g. 13000; 0 when unavailable
    std::string version_text() const;                 // "13.0"
    // The real architectures this NVRTC can target, ascending (75 = sm_75).
    const std::vector<int>& supported_architectures() const noexcept { return architectures_; }

    // Throws CudaUnavailable (with the reason) when NVRTC is unavailable.
    const nvrtc::EntryPoints& api() const;
    // Throws NvrtcError for anything but NVRTC_SUCCESS.
    void check(nvrtc::nvrtcResult result, const char* call, const char* file, int line) const;
    std::string error_name(nvrtc::nvrtcResult result) const noexcept;

  private:
    NvrtcLibrary() = default;
    void initialise(const std::vector<std::string>& candidates) noexcept;
    bool resolve_entry_points(std::string& missing) noexcept;

    std::optional<SharedLibrary> library_;
    nvrtc::EntryPoints api_{};
    std::string unavailable_reason_ = "NVRTC not loaded";
    int version_ = 0;
    std::vector<int> architectures_;
};

} // namespace bif::cuda

#define BIF_NVRTC_CALL(nvrtc_library, function, ...)                                                         \
    (nvrtc_library).check((nvrtc_library).api().function(__VA_ARGS__), #function, __FILE__, __LINE__)
