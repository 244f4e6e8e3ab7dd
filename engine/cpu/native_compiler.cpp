#include "engine/cpu/native_compiler.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace bif::cpu {

namespace fs = std::filesystem;

namespace {

// FNV-1a 64 (Fowler, Noll, Vo); two runs from different offset bases give a 128-bit key.
class KeyHash {
  public:
    void add(std::string_view text) {
        for (unsigned char c : text) {
            a_ = (a_ ^ c) * 0x100000001b3ull;
            b_ = (b_ ^ c) * 0x100000001b3ull;
        }
        // A separator byte that text cannot end with keeps ("ab","c") apart from ("a","bc").
        a_ = (a_ ^ 0x1f) * 0x100000001b3ull;
        b_ = (b_ ^ 0x1f) * 0x100000001b3ull;
    }
    std::string hex() const {
        char buffer[33];
        std::snprintf(buffer, sizeof buffer, "%016llx%016llx", static_cast<unsigned long long>(a_),
                      static_cast<unsigned long long>(b_));
        return buffer;
    }

  private:
    std::uint64_t a_ = 0xcbf29ce484222325ull;
    std::uint64_t b_ = 0x84222325cbf29ce4ull;
};

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
        words.push_back(w);
    return words;
}

bool is_executable_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// The program's full path: as given when it has a slash, else searched on $PATH.
std::string find_program(const std::string& program) {
    if (program.find('/') != std::string::npos) return is_executable_file(program) ? program : std::string();
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
        if (is_executable_file(candidate)) return candidate.string();
    }
    return {};
}

struct ProcessOutcome {
    int exit_status = -1; // -1: killed by a signal or never started
    std::string output;   // stdout and stderr together
};

// Runs argv[0] with stdout and stderr captured; polls `cancel` every 10 ms and kills the process
// when it becomes true (then throws NativeCompileCancelled).
ProcessOutcome run_process(const std::vector<std::string>& argv, const std::atomic<bool>* cancel) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw NativeCompileError("cannot create a pipe: " + std::string(std::strerror(errno)), "");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    // A process group of its own: a cancel then stops the driver and the cc1plus/as/ld it runs
    // (killing only the driver would leave cc1plus compiling on for seconds).
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawn_error = ::posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    ::close(fds[1]);
    if (spawn_error != 0) {
        ::close(fds[0]);
        throw NativeCompileError("cannot run " + argv[0] + ": " + std::strerror(spawn_error), "");
    }
    ProcessOutcome outcome;
    bool cancelled = false;
    for (;;) {
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, 10);
        if (cancel && cancel->load()) {
            ::kill(-pid, SIGKILL);
            cancelled = true;
            break;
        }
        if (ready <= 0) continue;
        char buffer[4096];
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n > 0)
            outcome.output.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (cancelled) throw NativeCompileCancelled();
    if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
    return outcome;
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Writes via a unique temporary name and a rename, so readers see the old file or the whole new one.
void publish_file(const fs::path& target, std::string_view content) {
    static std::atomic<unsigned> counter{0};
    const fs::path temp =
        target.string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    {
        std::ofstream out(temp, std::ios::binary);
        out.write(content.data(), static_cast<std::streamsize>(content.size()));
        if (!out) throw NativeCompileError("cannot write " + temp.string(), "");
    }
    std::error_code ec;
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw NativeCompileError("cannot write " + target.string(), "");
    }
}

// -march=native compiles for this CPU: its model and feature flags belong in the key, so a cache
// folder shared between machines (a network home) never hands one machine another's code.
std::string machine_fingerprint() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line, model, flags;
    while ((model.empty() || flags.empty()) && std::getline(cpuinfo, line)) {
        if (model.empty() && line.rfind("model name", 0) == 0) model = line;
        if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) flags = line;
    }
    std::string fingerprint = model + "\n" + flags + "\n";
    utsname u{};
    if (::uname(&u) == 0) fingerprint += u.machine;
    return fingerprint;
}

std::string headers_digest() {
    KeyHash h;
    for (const auto& header : embedded_kernel_headers()) {
        h.add(header.include_name);
        h.add(std::string_view(header.text, header.size));
    }
    return h.hex();
}

std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

} // namespace

fs::path default_native_cache_dir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return fs::path(xdg) / "bifscope" / "native";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "bifscope" / "native";
    return fs::temp_directory_path() / "bifscope-native";
}

SharedLibrary::SharedLibrary(const fs::path& path) {
    handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char* why = ::dlerror();
        throw std::runtime_error(why ? why : ("cannot load " + path.string()));
    }
}

SharedLibrary::~SharedLibrary() {
    if (handle_) ::dlclose(handle_);
}

void* SharedLibrary::symbol(const char* name) const {
    return ::dlsym(handle_, name);
}

NativeCompiler::NativeCompiler(NativeCompileOptions options)
    : options_(std::move(options)), machine_fingerprint_(machine_fingerprint()),
      headers_digest_(headers_digest()),
      cache_dir_(options_.cache_dir.empty() ? default_native_cache_dir() : options_.cache_dir) {
    std::string requested = options_.compiler;
    const char* cxx = std::getenv("CXX");
    std::string origin = "the compiler option";
    if (requested.empty() && cxx && *cxx) requested = cxx, origin = "CXX";
    std::vector<std::string> candidates;
    if (!requested.empty()) {
        compiler_command_ = split_words(requested);
        if (compiler_command_.empty()) {
            unavailable_reason_ = origin + " is blank";
            return;
        }
        compiler_path_ = find_program(compiler_command_[0]);
        if (compiler_path_.empty()) {
            unavailable_reason_ =
                "no C++ compiler: " + origin + "=" + requested + " is not an executable program";
            compiler_command_.clear();
            return;
        }
    } else {
        for (const char* name : {"c++", "g++", "clang++"})
            if (compiler_path_ = find_program(name); !compiler_path_.empty()) break;
        if (compiler_path_.empty()) {
            unavailable_reason_ = "no C++ compiler: none of c++, g++, clang++ is on PATH and CXX is not set";
            return;
        }
        compiler_command_ = {compiler_path_};
    }
    compiler_command_[0] = compiler_path_;
    std::vector<std::string> version_command = compiler_command_;
    version_command.push_back("--version");
    try {
        const ProcessOutcome outcome = run_process(version_command, nullptr);
        if (outcome.exit_status != 0)
            throw NativeCompileError("it failed: " + first_line(outcome.output), outcome.output);
        compiler_version_ = first_line(outcome.output);
    } catch (const std::exception& e) {
        unavailable_reason_ = "the C++ compiler " + compiler_path_ + " does not run (" + e.what() + ")";
        compiler_path_.clear();
        compiler_command_.clear();
    }
}

std::vector<std::string> NativeCompiler::flags() const {
    std::vector<std::string> f{"-std=c++20", "-O2", "-fPIC", "-shared"};
    if (options_.march_native) f.push_back("-march=native");
    f.insert(f.end(), options_.extra_flags.begin(), options_.extra_flags.end());
    return f;
}

std::vector<std::string> NativeCompiler::large_source_flags() const {
    // GCC's alias walks (DSE, value numbering) and its post-reload CSE grow faster than linearly
    // with a function's length: on the 1000-state chain's thousands of stores they took most of
    // the compile. The caps keep -O3 everywhere else; clang has no such options and needs none.
    if (compiler_version_.find("clang") != std::string::npos) return {};
    return {"--param=dse-max-alias-queries-per-store=16", "--param=sccvn-max-alias-queries-per-access=100",
            "-fno-gcse-after-reload"};
}

std::string NativeCompiler::cache_key(std::string_view source,
                                      const std::vector<std::string>& source_flags) const {
    KeyHash h;
    for (const auto& word : compiler_command_)
        h.add(word);
    h.add(compiler_version_);
    for (const auto& flag : flags())
        h.add(flag);
    for (const auto& flag : source_flags)
        h.add(flag);
    h.add(machine_fingerprint_);
    h.add(headers_digest_);
    h.add(source);
    return h.hex();
}

fs::path NativeCompiler::include_dir() const {
    return cache_dir_ / ("include-" + headers_digest_);
}

void NativeCompiler::write_headers() const {
    for (const auto& header : embedded_kernel_headers()) {
        const fs::path target = include_dir() / header.include_name;
        const std::string_view text(header.text, header.size);
        std::error_code ec;
        if (fs::exists(target, ec) && read_file(target) == text) continue;
        fs::create_directories(target.parent_path(), ec);
        publish_file(target, text);
    }
}

void NativeCompiler::run_compiler(const fs::path& source, const fs::path& object,
                                  const std::atomic<bool>* cancel,
                                  const std::vector<std::string>& source_flags) const {
    std::vector<std::string> argv = compiler_command_;
    for (const auto& flag : flags())
        argv.push_back(flag);
    argv.insert(argv.end(), source_flags.begin(), source_flags.end());
    argv.insert(argv.end(), {"-I", include_dir().string(), "-o", object.string(), source.string()});
    ++compiler_runs_;
    const ProcessOutcome outcome = run_process(argv, cancel);
    if (outcome.exit_status != 0)
        throw NativeCompileError("the C++ compiler (" + compiler_path_ +
                                     ") rejected the generated code; exit status " +
                                     std::to_string(outcome.exit_status),
                                 outcome.output);
}

std::shared_ptr<const SharedLibrary> NativeCompiler::find_loaded(const std::string& key) const {
    std::lock_guard lock(loaded_mutex_);
    for (auto it = loaded_.begin(); it != loaded_.end(); ++it) {
        if (it->first != key) continue;
        loaded_.splice(loaded_.begin(), loaded_, it);
        return loaded_.front().second;
    }
    return nullptr;
}

void NativeCompiler::keep_loaded(const std::string& key, std::shared_ptr<const SharedLibrary> library) const {
    std::lock_guard lock(loaded_mutex_);
    std::erase_if(loaded_, [&](const auto& entry) { return entry.first == key; });
    loaded_.emplace_front(key, std::move(library));
    if (loaded_.size() > loaded_module_limit) loaded_.pop_back();
}

bool NativeCompiler::loaded(const std::string& key) const {
    std::lock_guard lock(loaded_mutex_);
    return std::any_of(loaded_.begin(), loaded_.end(), [&](const auto& entry) { return entry.first == key; });
}

NativeModule NativeCompiler::compile(std::string_view source, const std::atomic<bool>* cancel,
                                     const std::vector<std::string>& source_flags) const {
    const auto start = std::chrono::steady_clock::now();
    NativeModule module;
    module.key = cache_key(source, source_flags);
    module.path = cache_dir_ / (module.key + ".so");
    if ((module.library = find_loaded(module.key))) {
        module.from_cache = true;
        return module;
    }
    std::error_code ec;
    if (fs::exists(module.path, ec)) {
        try {
            module.library = std::make_shared<const SharedLibrary>(module.path);
            module.from_cache = true;
            keep_loaded(module.key, module.library);
            return module;
        } catch (const std::exception&) {
            fs::remove(module.path, ec); // a damaged entry: build it again
        }
    }
    if (!available()) throw NativeCompileError(unavailable_reason_, "");
    if (cancel && cancel->load()) throw NativeCompileCancelled();
    fs::create_directories(cache_dir_, ec);
    if (ec)
        throw NativeCompileError(
            "cannot create the cache folder " + cache_dir_.string() + ": " + ec.message(), "");
    write_headers();
    static std::atomic<unsigned> counter{0};
    const std::string unique =
        module.key + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    const fs::path source_path = cache_dir_ / (unique + ".cpp"),
                   object_temp = cache_dir_ / (unique + ".so.tmp");
    publish_file(source_path, source);
    struct Cleanup {
        fs::path a, b;
        ~Cleanup() {
            std::error_code ignored;
            fs::remove(a, ignored);
            fs::remove(b, ignored);
        }
    } cleanup{source_path, object_temp};
    run_compiler(source_path, object_temp, cancel, source_flags);
    fs::rename(object_temp, module.path, ec);
    if (ec) throw NativeCompileError("cannot publish " + module.path.string() + ": " + ec.message(), "");
    try {
        module.library = std::make_shared<const SharedLibrary>(module.path);
    } catch (const std::exception& e) {
        throw NativeCompileError(std::string("the compiled object does not load: ") + e.what(), "");
    }
    keep_loaded(module.key, module.library);
    module.compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return module;
}

} // namespace bif::cpu
