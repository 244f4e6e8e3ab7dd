// What the NVRTC compilation service takes and gives: a program made of named parts, the target
// architecture, and the compiled image with the kernels' lowered names.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace bif::cuda {

enum class CodeKind {
    Cubin, // machine code for one real architecture (-arch=sm_XX); loads without JIT
    Ptx,   // virtual-architecture assembly (-arch=compute_XX); the driver compiles it at load time
};

class Target {
  public:
    static Target machine_code(int architecture) { return Target(architecture, CodeKind::Cubin); }
    static Target virtual_architecture(int architecture) { return Target(architecture, CodeKind::Ptx); }

    int architecture() const { return architecture_; } // 90 for sm_90 / compute_90
    CodeKind kind() const { return kind_; }
    std::string option() const; // "-arch=sm_90" or "-arch=compute_90"
    std::string name() const;   // "sm_90" or "compute_90"

  private:
    Target(int architecture, CodeKind kind) : architecture_(architecture), kind_(kind) {}
    int architecture_;
    CodeKind kind_;
};

// One piece of the program text. The service puts `#line 1 "<name>"` before each part, so NVRTC's
// log names the part and the line within it: errors in a generated model point at the model's own
// text (and are mapped back in CompileError::diagnostics()). Names: plain words such as "model".
struct SourcePart {
    std::string name;
    std::string text;
};

struct CompileRequest {
    std::vector<SourcePart> parts; // concatenated in this order into one translation unit
    // C++ names of __global__ functions to look up after compilation, e.g. "bif::ensemble<BifModel>"
    // for templates; extern "C" kernels need none (their name is the symbol).
    std::vector<std::string> name_expressions;
    bool fast_math = false;                 // --use_fast_math
    std::vector<std::string> extra_options; // e.g. "-lineinfo", "-DBIF_FOO=1"; part of the cache key
    // Each function compiled apart (-rdc=true) and the result linked by nvJitLink, where that is at
    // hand and the target is machine code: NVRTC then spreads the functions over its threads, where
    // it compiles a kernel and all it calls in sequence otherwise (engine/cuda/jit_link_library.h).
    bool separate_functions = false;
    // Options added only where the functions are compiled apart; part of the cache key then. A
    // --maxrregcount here stands in for a kernel's __launch_bounds__, which the functions it calls,
    // compiled apart, do not see (a kernel with a tighter bound of its own must call no function of
    // the module); a define may outline more of a kernel where its callees compile in parallel.
    std::vector<std::string> separate_options;
    std::string language_standard = "c++17";
};

class CompiledModule {
  public:
    CompiledModule(CodeKind kind, int architecture, std::string image,
                   std::vector<std::pair<std::string, std::string>> lowered_names, std::string log,
                   std::string key, double seconds, bool from_cache);

    CodeKind kind() const { return kind_; }
    int architecture() const { return architecture_; }
    const std::string& image() const { return image_; } // cubin bytes, or PTX text with its final '\0'
    // The symbol of a kernel named in CompileRequest::name_expressions; throws std::out_of_range.
    const std::string& lowered_name(const std::string& name_expression) const;
    const std::vector<std::pair<std::string, std::string>>& lowered_names() const { return lowered_names_; }
    const std::string& log() const { return log_; } // NVRTC's warnings, often empty
    const std::string& key() const { return key_; } // the cache key (SHA-256 hex)
    double seconds() const { return seconds_; }     // compilation, or cache lookup when from_cache()
    bool from_cache() const { return from_cache_; }

  private:
    CodeKind kind_;
    int architecture_;
    std::string image_;
    std::vector<std::pair<std::string, std::string>> lowered_names_;
    std::string log_;
    std::string key_;
    double seconds_;
    bool from_cache_;
};

} // namespace bif::cuda
