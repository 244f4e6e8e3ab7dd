// The NVRTC compilation service: a program (generated model source plus kernel code, as named
// parts) and the embedded kernels/ headers in, machine code out, cached on disk by a hash of
// everything that determines the result.
//
//   ModuleCompiler compiler;                                // process-wide NVRTC, default cache
//   Target target = compiler.target_for(device);            // sm_90 cubin on an H100
//   CompiledModule module = compiler.compile(request, target);
//
// Throws CudaUnavailable without NVRTC, CompileError when NVRTC rejects the source (log mapped back
// to the parts), NvrtcError (std::runtime_error from a compile's own process) for other NVRTC
// failures, CompileCancelled when cancelled. compile() is thread-safe.
#pragma once

#include "engine/cuda/compile_request.h"
#include "engine/cuda/module_cache.h"

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace bif::cuda {

class JitLinkLibrary;
class NvrtcLibrary;
struct DeviceInfo;

class ModuleCompiler {
  public:
    explicit ModuleCompiler(ModuleCache cache = ModuleCache::default_location());
    // `linker` links separately compiled requests (null: each is compiled whole); by default the
    // process-wide nvJitLink when `nvrtc` is the process-wide NVRTC.
    ModuleCompiler(const NvrtcLibrary& nvrtc, ModuleCache cache);
    ModuleCompiler(const NvrtcLibrary& nvrtc, ModuleCache cache, const JitLinkLibrary* linker);

    // Machine code for the device's architecture when NVRTC supports it; for a device newer than
    // NVRTC knows, PTX of the newest architecture it does (the driver compiles it at load time); for
    // one of the same major version but a minor NVRTC lacks, machine code of the nearest lower one.
    // Throws CudaUnavailable when NVRTC is too new for the device (oldest architecture above it).
    Target target_for(const DeviceInfo& device) const;
    // The oldest virtual architecture this NVRTC supports: for device-free PTX checks.
    Target oldest_virtual_target() const;

    // An uncached module is compiled in a child process (compile_process.h) that `cancel` (may be
    // null) kills: then CompileCancelled is thrown within ~10 ms. BIFSCOPE_NVRTC_IN_PROCESS=1
    // compiles in this process instead (for profilers), uncancellable.
    CompiledModule compile(const CompileRequest& request, const Target& target,
                           const std::atomic<bool>* cancel = nullptr) const;
    // The module from the cache, or nothing where compile() would have to compile it.
    std::optional<CompiledModule> cached_module(const CompileRequest& request, const Target& target) const;
    // NVRTC's first compile in a process costs ~0.1 s more than later ones (its own start-up,
    // measured on an H100 server: tests/bench/README.md). A tiny program compiled for
    // `target`, uncached, pays that where an application waits for nothing (while its window opens).
    void warm_up(const Target& target) const;
    // Whether `request` is compiled as separate functions and linked for `target`: it asks for it,
    // the target is machine code, nvJitLink is at hand and BIFSCOPE_NVRTC_SEPARATE is not 0 (the
    // switch the benchmarks compare with).
    bool separates(const CompileRequest& request, const Target& target) const;
    // Whether compile() would be served from the cache (an entry exists; it is not read or checked).
    bool cached(const CompileRequest& request, const Target& target) const;

    // The translation unit as NVRTC sees it (parts with their #line directives).
    static std::string program_text(const CompileRequest& request);
    std::vector<std::string> options(const CompileRequest& request, const Target& target) const;
    std::string cache_key(const CompileRequest& request, const Target& target) const;

    const ModuleCache& cache() const { return cache_; }
    const NvrtcLibrary& nvrtc() const { return nvrtc_; }

  private:
    std::optional<CompiledModule> from_cache(const std::string& key, const Target& target,
                                             std::chrono::steady_clock::time_point start) const;
    CompiledModule compile_uncached(const CompileRequest& request, const Target& target,
                                    const std::string& key, const std::atomic<bool>* cancel) const;
    CompiledModule compile_in_this_process(const CompileRequest& request, const Target& target,
                                           const std::string& key) const;

    const NvrtcLibrary& nvrtc_;
    ModuleCache cache_;
    const JitLinkLibrary* linker_;
};

} // namespace bif::cuda
