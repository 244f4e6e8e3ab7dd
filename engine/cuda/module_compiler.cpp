#include "engine/cuda/module_compiler.h"

#include "engine/cuda/compile_log.h"
#include "engine/cuda/compile_process.h"
#include "engine/cuda/device_info.h"
#include "engine/cuda/embedded_headers.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/jit_link_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/cuda/sha256.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <list>
#include <mutex>
#include <stdexcept>

namespace bif::cuda {

namespace {

// Bump when the meaning of a cached entry changes (options, entry layout, program assembly).
constexpr std::string_view cache_format = "bifscope-module-cache-2";

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Destroys an NVRTC program on every way out of compile_uncached.
class ProgramGuard {
  public:
    ProgramGuard(const NvrtcLibrary& nvrtc, nvrtc::nvrtcProgram program) : nvrtc_(nvrtc), program_(program) {}
    ProgramGuard(const ProgramGuard&) = delete;
    ProgramGuard& operator=(const ProgramGuard&) = delete;
    ~ProgramGuard() { nvrtc_.api().nvrtcDestroyProgram(&program_); }
    nvrtc::nvrtcProgram get() const { return program_; }

  private:
    const NvrtcLibrary& nvrtc_;
    nvrtc::nvrtcProgram program_;
};

std::string program_log(const NvrtcLibrary& nvrtc, nvrtc::nvrtcProgram program) {
    std::size_t size = 0;
    BIF_NVRTC_CALL(nvrtc, nvrtcGetProgramLogSize, program, &size);
    std::string log(size, '\0');
    if (size > 0) BIF_NVRTC_CALL(nvrtc, nvrtcGetProgramLog, program, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

std::string program_image(const NvrtcLibrary& nvrtc, nvrtc::nvrtcProgram program, CodeKind kind) {
    std::size_t size = 0;
    std::string image;
    if (kind == CodeKind::Cubin) {
        BIF_NVRTC_CALL(nvrtc, nvrtcGetCUBINSize, program, &size);
        image.resize(size);
        BIF_NVRTC_CALL(nvrtc, nvrtcGetCUBIN, program, image.data());
    } else {
        BIF_NVRTC_CALL(nvrtc, nvrtcGetPTXSize, program, &size); // counts the final '\0'
        image.resize(size);
        BIF_NVRTC_CALL(nvrtc, nvrtcGetPTX, program, image.data());
    }
    return image;
}

// Length-prefixed fields: how a module or a failure crosses the pipe from the compile's process.
void put_field(std::string& out, const std::string& field) {
    const std::uint64_t n = field.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out += field;
}

std::string take_field(const std::string& in, std::size_t& at) {
    std::uint64_t n = 0;
    if (at + sizeof n > in.size()) throw std::runtime_error("the compile's process sent a truncated result");
    std::memcpy(&n, in.data() + at, sizeof n);
    at += sizeof n;
    if (n > in.size() - at) throw std::runtime_error("the compile's process sent a truncated result");
    std::string field = in.substr(at, std::size_t(n));
    at += std::size_t(n);
    return field;
}

std::string encode_module(const CompiledModule& module) {
    std::string out;
    put_field(out, module.image());
    put_field(out, module.log());
    put_field(out, std::to_string(module.lowered_names().size()));
    for (const auto& [expression, lowered] : module.lowered_names()) {
        put_field(out, expression);
        put_field(out, lowered);
    }
    return out;
}

// 'E': NVRTC rejected the source (its log follows); 'U': CUDA unavailable; 'R': anything else.
std::string encode_failure(std::exception_ptr failure) {
    std::string out;
    try {
        std::rethrow_exception(failure);
    } catch (const CompileError& e) {
        out = "E";
        put_field(out, e.what());
        put_field(out, e.log());
    } catch (const CudaUnavailable& e) {
        out = "U";
        put_field(out, e.what());
    } catch (const std::exception& e) {
        out = "R";
        put_field(out, e.what());
    }
    return out;
}

[[noreturn]] void rethrow_failure(const std::string& bytes, const std::vector<SourcePart>& parts) {
    std::size_t at = 1;
    const std::string what = bytes.empty() ? std::string("unknown failure") : take_field(bytes, at);
    switch (bytes.empty() ? 'R' : bytes[0]) {
    case 'E': {
        std::string log = take_field(bytes, at);
        throw CompileError(what, log, map_compile_log(log, parts));
    }
    case 'U':
        throw CudaUnavailable(what);
    default:
        throw std::runtime_error(what);
    }
}

bool compiles_in_this_process() {
    const char* in_process = std::getenv("BIFSCOPE_NVRTC_IN_PROCESS");
    return in_process && std::string_view(in_process) == "1";
}

} // namespace

std::string Target::option() const {
    return "-arch=" + name();
}

std::string Target::name() const {
    return (kind_ == CodeKind::Cubin ? "sm_" : "compute_") + std::to_string(architecture_);
}

CompiledModule::CompiledModule(CodeKind kind, int architecture, std::string image,
                               std::vector<std::pair<std::string, std::string>> lowered_names,
                               std::string log, std::string key, double seconds, bool from_cache)
    : kind_(kind), architecture_(architecture), image_(std::move(image)),
      lowered_names_(std::move(lowered_names)), log_(std::move(log)), key_(std::move(key)), seconds_(seconds),
      from_cache_(from_cache) {}

const std::string& CompiledModule::lowered_name(const std::string& name_expression) const {
    for (const auto& [expression, lowered] : lowered_names_)
        if (expression == name_expression) return lowered;
    throw std::out_of_range("no kernel named '" + name_expression + "' was requested from this module");
}

ModuleCompiler::ModuleCompiler(ModuleCache cache)
    : ModuleCompiler(NvrtcLibrary::instance(), std::move(cache)) {}

ModuleCompiler::ModuleCompiler(const NvrtcLibrary& nvrtc, ModuleCache cache)
    : ModuleCompiler(nvrtc, std::move(cache),
                     &nvrtc == &NvrtcLibrary::instance() ? &JitLinkLibrary::instance() : nullptr) {}

ModuleCompiler::ModuleCompiler(const NvrtcLibrary& nvrtc, ModuleCache cache, const JitLinkLibrary* linker)
    : nvrtc_(nvrtc), cache_(std::move(cache)), linker_(linker) {}

bool ModuleCompiler::separates(const CompileRequest& request, const Target& target) const {
    if (!request.separate_functions || target.kind() != CodeKind::Cubin) return false;
    if (linker_ == nullptr || !linker_->available()) return false;
    const char* forced = std::getenv("BIFSCOPE_NVRTC_SEPARATE");
    return !(forced && std::string_view(forced) == "0");
}

Target ModuleCompiler::target_for(const DeviceInfo& device) const {
    nvrtc_.api(); // throws CudaUnavailable with the reason
    const std::vector<int>& supported = nvrtc_.supported_architectures();
    const int wanted = device.capability.number();
    if (wanted > supported.back()) return Target::virtual_architecture(supported.back());
    int best = 0;
    for (int architecture : supported)
        if (architecture <= wanted && architecture / 10 == wanted / 10)
            best =
                architecture; // same major: its machine code runs on the later minor (binary compatibility)
    if (best == 0)
        throw CudaUnavailable("NVRTC " + nvrtc_.version_text() + " cannot compile for " + device.name +
                              " (sm_" + std::to_string(wanted) + "); its oldest architecture is sm_" +
                              std::to_string(supported.front()));
    return Target::machine_code(best);
}

Target ModuleCompiler::oldest_virtual_target() const {
    nvrtc_.api();
    return Target::virtual_architecture(nvrtc_.supported_architectures().front());
}

void ModuleCompiler::warm_up(const Target& target) const {
    CompileRequest request;
    // a transcendental call, so that NVRTC's math library is read too; compiled apart and linked, so
    // that nvJitLink is loaded and has linked once
    request.parts.push_back(
        {"warm_up", "extern \"C\" __global__ void bif_warm_up(double* x) { x[0] = sin(x[1]); }\n"});
    request.separate_functions = true;
    // in this process: the compiles' processes are forked from it and start warm
    const ModuleCompiler uncached(nvrtc_, ModuleCache::disabled(), linker_);
    std::lock_guard lock(in_process_nvrtc_mutex());
    (void)uncached.compile_in_this_process(request, target, uncached.cache_key(request, target));
}

std::string ModuleCompiler::program_text(const CompileRequest& request) {
    std::string text;
    for (const SourcePart& part : request.parts) {
        text += "#line 1 \"" + part.name + "\"\n";
        text += part.text;
        if (!part.text.empty() && part.text.back() != '\n') text += '\n';
    }
    return text;
}

std::vector<std::string> ModuleCompiler::options(const CompileRequest& request, const Target& target) const {
    std::vector<std::string> options = {target.option(), "-std=" + request.language_standard,
                                        "-default-device"};
    if (request.fast_math) options.emplace_back("--use_fast_math");
    // NVRTC 12.8 and later: the optimizer's and ptxas' work on the module's functions spread over
    // every core (BIFSCOPE_NVRTC_SPLIT_COMPILE=N: at most N threads, 1 none). The same machine code;
    // cold compiles of Hodgkin-Huxley and Keller-Miksis on a 16-core H100 server 1.56-1.64 -> 1.23-1.42 s
    // and 1.99-2.01 -> 1.58-1.73 s (tests/bench/README.md).
    if (nvrtc_.version() >= 12080) {
        const char* threads = std::getenv("BIFSCOPE_NVRTC_SPLIT_COMPILE");
        options.emplace_back(std::string("--split-compile=") + (threads && *threads ? threads : "0"));
    }
    if (separates(request, target)) {
        options.emplace_back("-rdc=true");
        options.insert(options.end(), request.separate_options.begin(), request.separate_options.end());
    }
    options.insert(options.end(), request.extra_options.begin(), request.extra_options.end());
    return options;
}

std::string ModuleCompiler::cache_key(const CompileRequest& request, const Target& target) const {
    Sha256 hash;
    hash.update_field(cache_format);
    hash.update_field(std::to_string(nvrtc_.version()));
    hash.update_field(embedded_headers_digest());
    hash.update_field(program_text(request));
    for (const std::string& option : options(request, target))
        hash.update_field(option);
    hash.update_field("names");
    for (const std::string& name : request.name_expressions)
        hash.update_field(name);
    return hash.hex_digest();
}

namespace {

// The cache entries this process read last, with the file's size and time when it was read: a run of a
// study run before takes its module from here instead of reading the file and checking its checksum
// again (0.5 ms for a small model, more for big cubins, every run and every block of a progressive
// run), as long as the file is still the one read (a damaged or replaced entry is read again).
class ReadEntries {
  public:
    struct Stamp {
        std::filesystem::file_time_type written;
        std::uintmax_t size = 0;
        bool operator==(const Stamp&) const = default;
    };
    static std::optional<Stamp> stamp_of(const std::filesystem::path& file) {
        std::error_code error;
        Stamp stamp{std::filesystem::last_write_time(file, error), 0};
        if (error) return std::nullopt;
        stamp.size = std::filesystem::file_size(file, error);
        if (error) return std::nullopt;
        return stamp;
    }
    std::optional<CacheEntry> find(const std::filesystem::path& file, const Stamp& stamp) {
        std::lock_guard lock(mutex_);
        for (const auto& [path, read] : entries_)
            if (path == file && read.first == stamp) return read.second;
        return std::nullopt;
    }
    void keep(const std::filesystem::path& file, const Stamp& stamp, const CacheEntry& entry) {
        std::lock_guard lock(mutex_);
        std::erase_if(entries_, [&](const auto& e) { return e.first == file; });
        entries_.emplace_front(file, std::make_pair(stamp, entry));
        if (entries_.size() > 16) entries_.pop_back();
    }

  private:
    std::mutex mutex_;
    std::list<std::pair<std::filesystem::path, std::pair<Stamp, CacheEntry>>> entries_;
};

ReadEntries& read_entries() {
    static ReadEntries entries;
    return entries;
}

} // namespace

std::optional<CompiledModule> ModuleCompiler::from_cache(const std::string& key, const Target& target,
                                                         std::chrono::steady_clock::time_point start) const {
    if (!cache_.enabled()) return std::nullopt;
    const std::filesystem::path file = cache_.entry_path(key);
    const std::optional<ReadEntries::Stamp> stamp = ReadEntries::stamp_of(file);
    std::optional<CacheEntry> cached = stamp ? read_entries().find(file, *stamp) : std::nullopt;
    if (!cached) {
        cached = cache_.load(key);
        if (cached && stamp) read_entries().keep(file, *stamp, *cached);
    }
    if (!cached || cached->kind != target.kind()) return std::nullopt;
    return CompiledModule(cached->kind, cached->architecture, std::move(cached->image),
                          std::move(cached->lowered_names), std::move(cached->log), key, seconds_since(start),
                          true);
}

std::optional<CompiledModule> ModuleCompiler::cached_module(const CompileRequest& request,
                                                            const Target& target) const {
    nvrtc_.api();
    const auto start = std::chrono::steady_clock::now();
    return from_cache(cache_key(request, target), target, start);
}

CompiledModule ModuleCompiler::compile(const CompileRequest& request, const Target& target,
                                       const std::atomic<bool>* cancel) const {
    nvrtc_.api();
    const auto start = std::chrono::steady_clock::now();
    const std::string key = cache_key(request, target);
    if (std::optional<CompiledModule> cached = from_cache(key, target, start)) return std::move(*cached);
    CompiledModule module = compile_uncached(request, target, key, cancel);
    cache_.store(key, CacheEntry{module.kind(), module.architecture(), module.image(), module.lowered_names(),
                                 module.log()});
    return module;
}

bool ModuleCompiler::cached(const CompileRequest& request, const Target& target) const {
    if (!cache_.enabled()) return false;
    std::error_code ignored;
    return std::filesystem::exists(cache_.entry_path(cache_key(request, target)), ignored);
}

CompiledModule ModuleCompiler::compile_uncached(const CompileRequest& request, const Target& target,
                                                const std::string& key,
                                                const std::atomic<bool>* cancel) const {
    if (compiles_in_this_process()) {
        std::lock_guard lock(in_process_nvrtc_mutex());
        return compile_in_this_process(request, target, key);
    }
    const auto start = std::chrono::steady_clock::now();
    const ChildOutcome outcome = run_in_child(
        [&] { return encode_module(compile_in_this_process(request, target, key)); }, encode_failure, cancel);
    switch (outcome.kind) {
    case ChildOutcome::Kind::Value:
        break;
    case ChildOutcome::Kind::Failure:
        rethrow_failure(outcome.bytes, request.parts);
    case ChildOutcome::Kind::Crashed:
        throw std::runtime_error("NVRTC " + nvrtc_.version_text() + " did not finish the compile for " +
                                 target.name() + ": " + outcome.bytes);
    }
    std::size_t at = 0;
    std::string image = take_field(outcome.bytes, at);
    std::string log = take_field(outcome.bytes, at);
    const std::size_t names = std::stoul(take_field(outcome.bytes, at));
    std::vector<std::pair<std::string, std::string>> lowered_names;
    for (std::size_t i = 0; i < names; ++i) {
        std::string expression = take_field(outcome.bytes, at);
        lowered_names.emplace_back(std::move(expression), take_field(outcome.bytes, at));
    }
    return CompiledModule(target.kind(), target.architecture(), std::move(image), std::move(lowered_names),
                          std::move(log), key, seconds_since(start), false);
}

CompiledModule ModuleCompiler::compile_in_this_process(const CompileRequest& request, const Target& target,
                                                       const std::string& key) const {
    const auto start = std::chrono::steady_clock::now();
    const std::string text = program_text(request);
    std::vector<const char*> header_texts;
    std::vector<const char*> header_names;
    for (const EmbeddedHeader& header : embedded_headers()) {
        header_texts.push_back(header.text);
        header_names.push_back(header.include_name);
    }
    nvrtc::nvrtcProgram raw = nullptr;
    BIF_NVRTC_CALL(nvrtc_, nvrtcCreateProgram, &raw, text.c_str(), "bifscope_module.cu",
                   static_cast<int>(header_texts.size()), header_texts.data(), header_names.data());
    const ProgramGuard program(nvrtc_, raw);
    for (const std::string& name : request.name_expressions)
        BIF_NVRTC_CALL(nvrtc_, nvrtcAddNameExpression, program.get(), name.c_str());

    const std::vector<std::string> option_texts = options(request, target);
    std::vector<const char*> option_pointers;
    for (const std::string& option : option_texts)
        option_pointers.push_back(option.c_str());
    const nvrtc::nvrtcResult compiled = nvrtc_.api().nvrtcCompileProgram(
        program.get(), static_cast<int>(option_pointers.size()), option_pointers.data());
    std::string log = program_log(nvrtc_, program.get());
    // A rejected option (NVRTC_ERROR_INVALID_OPTION) explains itself in the log too.
    if (compiled != nvrtc::NVRTC_SUCCESS)
        throw CompileError("NVRTC " + nvrtc_.version_text() + " could not compile the program for " +
                               target.name() + " (" + nvrtc_.error_name(compiled) + "):\n" +
                               annotate_compile_log(log, request.parts),
                           log, map_compile_log(log, request.parts));

    std::vector<std::pair<std::string, std::string>> lowered_names;
    for (const std::string& name : request.name_expressions) {
        const char* lowered = nullptr;
        BIF_NVRTC_CALL(nvrtc_, nvrtcGetLoweredName, program.get(), name.c_str(), &lowered);
        lowered_names.emplace_back(name, lowered);
    }
    std::string image = program_image(nvrtc_, program.get(), target.kind());
    if (separates(request, target)) image = linker_->link_cubin(image, target.architecture());
    return CompiledModule(target.kind(), target.architecture(), std::move(image), std::move(lowered_names),
                          std::move(log), key, seconds_since(start), false);
}

} // namespace bif::cuda
