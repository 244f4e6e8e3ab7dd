// Compiling generated C++ to a shared object with the system's C++ compiler at run time, cached on
// disk by a hash of everything that affects the object, then loaded with dlopen.
//
//   NativeCompiler compiler;                      // finds a compiler; never throws
//   if (!compiler.available()) use the evaluator; record compiler.unavailable_reason()
//   NativeModule m = compiler.compile(source);    // generated model + entry code, one TU
//   auto* entry = m.library->function<int(double*)>("bif_entry");
//
// The compiler: NativeCompileOptions::compiler, else $CXX (a path or a name, optionally followed by
// arguments, as in "ccache g++"), else the first of c++, g++, clang++ on $PATH.
// Flags: -std=c++20 -O2 -fPIC -shared -march=native -I<kernels headers>. The kernels/ headers are
// embedded in this binary at build time and written under the cache folder, so an installed program
// needs no source tree; the source includes them as "bif/...".
// Cache: <cache_dir>/<key>.so, the key 128 bits (two FNV-1a 64 hashes) over the compiler's path and version
// text, the flags, a fingerprint of this CPU (because of -march=native), the embedded headers and the
// source. Entries are published atomically (written to a temporary name, then renamed), so
// concurrent processes never load a half-written object; an entry that fails to load is deleted and
// rebuilt. Default cache_dir: $XDG_CACHE_HOME/bifscope/native, else ~/.cache/bifscope/native.
// A compiler object keeps the modules it loaded last (loaded_module_limit) open, so that compiling a
// source again in the same process touches neither the disk nor the dynamic loader (a loaded object
// must then not be overwritten in place; the cache only ever replaces files by renaming).
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bif::cpu {

// A header of kernels/, embedded at build time ("bif/config.h" and its text).
struct EmbeddedKernelHeader {
    const char* include_name;
    const char* text;
    std::size_t size;
};
std::span<const EmbeddedKernelHeader> embedded_kernel_headers();

// The compiler could not be run, or rejected the source: the message says which; log() holds the
// compiler's output (empty when it never ran).
class NativeCompileError : public std::runtime_error {
  public:
    NativeCompileError(const std::string& message, std::string log)
        : std::runtime_error(message), log_(std::move(log)) {}
    const std::string& log() const { return log_; }

  private:
    std::string log_;
};

// compile() was cancelled through its flag; the compiler process was stopped.
class NativeCompileCancelled : public std::runtime_error {
  public:
    NativeCompileCancelled() : std::runtime_error("compilation cancelled") {}
};

// A dlopen'ed shared object, closed when the last owner lets go.
class SharedLibrary {
  public:
    // Throws std::runtime_error with dlerror()'s text when the object cannot be loaded.
    explicit SharedLibrary(const std::filesystem::path& path);
    ~SharedLibrary();
    SharedLibrary(const SharedLibrary&) = delete;
    SharedLibrary& operator=(const SharedLibrary&) = delete;

    // nullptr when absent.
    void* symbol(const char* name) const;
    template <class Signature>
    Signature* function(const char* name) const {
        return reinterpret_cast<Signature*>(symbol(name));
    }

  private:
    void* handle_ = nullptr;
};

// How many modules a NativeCompiler keeps loaded for sources compiled again.
inline constexpr std::size_t loaded_module_limit = 32;

struct NativeCompileOptions {
    std::filesystem::path cache_dir; // empty: the default cache folder
    std::string compiler;            // empty: $CXX, then c++, g++, clang++ on $PATH
    std::vector<std::string> extra_flags;
    bool march_native = true;
};

struct NativeModule {
    std::shared_ptr<const SharedLibrary> library;
    std::filesystem::path path; // the cached object
    std::string key;            // 32 hex digits
    bool from_cache = false;    // true when no compiler ran
    double compile_seconds = 0.0;
};

class NativeCompiler {
  public:
    explicit NativeCompiler(NativeCompileOptions options = {});

    bool available() const { return !compiler_path_.empty(); }
    const std::string& unavailable_reason() const { return unavailable_reason_; }
    const std::string& compiler_path() const { return compiler_path_; }
    const std::string& compiler_version() const { return compiler_version_; } // first line of --version
    const std::filesystem::path& cache_dir() const { return cache_dir_; }
    std::vector<std::string> flags() const;

    // Compiles one translation unit (or loads it from the cache). Thread-safe. Throws
    // NativeCompileError when no compiler is available, the compiler fails, or the cache folder
    // cannot be written; NativeCompileCancelled when *cancel becomes true while the compiler runs
    // (checked every 10 ms; the compiler's whole process group is killed). source_flags follow
    // flags() on the command line and enter the cache key.
    NativeModule compile(std::string_view source, const std::atomic<bool>* cancel = nullptr,
                         const std::vector<std::string>& source_flags = {}) const;

    // The cache key compile() would use for this source.
    std::string cache_key(std::string_view source, const std::vector<std::string>& source_flags = {}) const;
    // Flags for sources with functions of thousands of statements (big generated models): they
    // bound the compiler's superlinear passes; empty for compilers that need none.
    std::vector<std::string> large_source_flags() const;
    // How many times this object ran the compiler on a source (not counting --version): tests use it
    // to see cache hits.
    int compiler_runs() const { return compiler_runs_.load(); }
    // Whether compile() would hand out a module this object already loaded (no disk, no dlopen).
    bool loaded(const std::string& key) const;

  private:
    std::filesystem::path include_dir() const;
    void write_headers() const;
    void run_compiler(const std::filesystem::path& source, const std::filesystem::path& object,
                      const std::atomic<bool>* cancel, const std::vector<std::string>& source_flags) const;

    NativeCompileOptions options_;
    std::vector<std::string> compiler_command_; // program and its leading arguments
    std::string compiler_path_;
    std::string compiler_version_;
    std::string unavailable_reason_;
    std::string machine_fingerprint_;
    std::string headers_digest_;
    std::filesystem::path cache_dir_;
    mutable std::atomic<int> compiler_runs_{0};
    // The modules this object loaded last, most recent first: a study run again (every warm job of
    // the CPU backend) takes its module from here instead of dlopen'ing it again (0.5 ms or more,
    // the object relocated anew each time it had been closed).
    mutable std::mutex loaded_mutex_;
    mutable std::list<std::pair<std::string, std::shared_ptr<const SharedLibrary>>> loaded_;
    std::shared_ptr<const SharedLibrary> find_loaded(const std::string& key) const;
    void keep_loaded(const std::string& key, std::shared_ptr<const SharedLibrary> library) const;
};

// The default cache folder (see the top of this file).
std::filesystem::path default_native_cache_dir();

} // namespace bif::cpu
