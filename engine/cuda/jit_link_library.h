// nvJitLink, the toolkit's device linker, loaded at run time like NVRTC. It links the relocatable
// machine code NVRTC makes with -rdc=true into a loadable cubin, without a GPU or a context.
//
// Why Bifscope links at all: NVRTC and ptxas spread their work over threads per compiled function
// only in separate compilation; in whole-program mode a kernel and every function it calls are one
// unit, compiled in sequence (tests/bench/README.md). The link itself takes a few ms.
//
// Search order: the folder of the NVRTC library in use, then NVRTC's own candidates
// (NvrtcLibrary::default_candidates' folders); in each place libnvJitLink.so and .so.<NVRTC's major>. The
// library must have NVRTC's major version: relocatable code of a newer NVRTC is not linked by an
// older nvJitLink. Loading never throws; unavailable_reason() says why it cannot be used.
#pragma once

#include "engine/cuda/shared_library.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bif::cuda {

class NvrtcLibrary;

namespace nvjitlink {

using Result = int;
struct Handle_;
using Handle = Handle_*;
inline constexpr Result success = 0;
inline constexpr int input_cubin = 1; // NVJITLINK_INPUT_CUBIN

struct EntryPoints {
    Result (*create)(Handle* handle, std::uint32_t option_count, const char** options);
    Result (*destroy)(Handle* handle);
    Result (*add_data)(Handle handle, int input_type, const void* data, std::size_t size, const char* name);
    Result (*complete)(Handle handle);
    Result (*linked_cubin_size)(Handle handle, std::size_t* size);
    Result (*linked_cubin)(Handle handle, void* cubin);
    Result (*error_log_size)(Handle handle, std::size_t* size);
    Result (*error_log)(Handle handle, char* log);
    Result (*version)(unsigned* major, unsigned* minor); // 12.3 and later; may be null
};

} // namespace nvjitlink

class JitLinkLibrary {
  public:
    // The process-wide nvJitLink matching NvrtcLibrary::instance(), searched for once (thread-safe).
    static const JitLinkLibrary& instance() noexcept;
    // A separate load from `candidates`, accepted only at NVRTC major version `nvrtc_major`.
    static std::unique_ptr<JitLinkLibrary> load(const std::vector<std::string>& candidates,
                                                int nvrtc_major) noexcept;
    // Where to look for the nvJitLink that goes with `nvrtc`.
    static std::vector<std::string> candidates_for(const NvrtcLibrary& nvrtc);

    JitLinkLibrary(const JitLinkLibrary&) = delete;
    JitLinkLibrary& operator=(const JitLinkLibrary&) = delete;

    bool available() const noexcept { return unavailable_reason_.empty(); }
    const std::string& unavailable_reason() const noexcept { return unavailable_reason_; }
    const std::string& path() const noexcept;

    // `relocatable`: one -rdc=true cubin for sm_`architecture`; returns the linked cubin. Throws
    // CudaUnavailable when nvJitLink is unavailable, std::runtime_error (with nvJitLink's log) when
    // the link fails.
    std::string link_cubin(const std::string& relocatable, int architecture) const;

  private:
    JitLinkLibrary() = default;
    void initialise(const std::vector<std::string>& candidates, int nvrtc_major) noexcept;

    std::optional<SharedLibrary> library_;
    nvjitlink::EntryPoints api_{};
    std::string unavailable_reason_ = "nvJitLink not loaded";
};

} // namespace bif::cuda
