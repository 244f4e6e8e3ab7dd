// Run-time compilation with the system's C++ compiler: a call into the compiled object, cache hits
// that run no compiler, recovery from a damaged cache entry, compiler errors with their log, a
// missing compiler, and cancellation of a compiler that hangs (a fake compiler script).
#include "engine/cpu/native_compiler.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace bif::cpu;
using namespace std::chrono_literals;

namespace {

// A fresh folder per test case, removed afterwards.
struct TempDir {
    fs::path path;
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "bifscope-native-test-XXXXXX").string();
        path = ::mkdtemp(pattern.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

// Uses a kernels/ header, so the embedded headers must reach the compiler.
const char* add_source = R"(
#include "bif/config.h"
extern "C" double bif_test_sin_sum(double a, double b) { return bif::m::sin(a) + b; }
)";

fs::path write_script(const fs::path& dir, const std::string& name, const std::string& body) {
    const fs::path p = dir / name;
    std::ofstream(p) << "#!/bin/sh\nif [ \"$1\" = --version ]; then echo fake-compiler 1.0; exit 0; fi\n"
                     << body;
    fs::permissions(p, fs::perms::owner_all);
    return p;
}

NativeCompileOptions options_for(const fs::path& cache, std::string compiler = {}) {
    NativeCompileOptions o;
    o.cache_dir = cache;
    o.compiler = std::move(compiler);
    return o;
}

// Scoped change of an environment variable.
struct EnvOverride {
    std::string name;
    std::optional<std::string> previous;
    EnvOverride(std::string n, const char* value) : name(std::move(n)) {
        if (const char* old = std::getenv(name.c_str())) previous = old;
        ::setenv(name.c_str(), value, 1);
    }
    ~EnvOverride() {
        if (previous)
            ::setenv(name.c_str(), previous->c_str(), 1);
        else
            ::unsetenv(name.c_str());
    }
};

} // namespace

TEST_CASE("the kernels headers are embedded", "[cpu][native]") {
    bool has_config = false;
    for (const auto& h : embedded_kernel_headers())
        if (std::string_view(h.include_name) == "bif/config.h") has_config = h.size > 100;
    CHECK(has_config);
}

TEST_CASE("compile, call, then hit the cache without running the compiler", "[cpu][native]") {
    TempDir cache;
    NativeCompiler compiler(options_for(cache.path));
    if (!compiler.available()) {
        WARN("no C++ compiler here: " << compiler.unavailable_reason());
        return;
    }
    CHECK_FALSE(compiler.compiler_version().empty());
    const NativeModule first = compiler.compile(add_source);
    CHECK_FALSE(first.from_cache);
    CHECK(compiler.compiler_runs() == 1);
    CHECK(first.key.size() == 32);
    auto* f = first.library->function<double(double, double)>("bif_test_sin_sum");
    REQUIRE(f);
    CHECK(f(0.5, 2.0) == std::sin(0.5) + 2.0);
    const auto written = fs::last_write_time(first.path);

    // A new compiler object (nothing shared in memory) finds the object on disk.
    NativeCompiler again(options_for(cache.path));
    const NativeModule second = again.compile(add_source);
    CHECK(second.from_cache);
    CHECK(again.compiler_runs() == 0);
    CHECK(second.path == first.path);
    CHECK(fs::last_write_time(second.path) == written);
    CHECK(second.library->function<double(double, double)>("bif_test_sin_sum")(0.0, 1.5) == 1.5);

    // Another source is another entry.
    const std::string other = std::string(add_source) + "\n// another\n";
    CHECK(again.cache_key(other) != first.key);
}

TEST_CASE("a compiler object hands out the module it loaded again, without the disk", "[cpu][native]") {
    TempDir cache;
    NativeCompiler compiler(options_for(cache.path));
    if (!compiler.available()) return;
    const NativeModule first = compiler.compile(add_source);
    CHECK(compiler.loaded(first.key));
    // the cached object may even go: the loaded module is the same code
    fs::remove(first.path);
    const NativeModule again = compiler.compile(add_source);
    CHECK(again.from_cache);
    CHECK(compiler.compiler_runs() == 1);
    CHECK(again.library == first.library);
    CHECK(again.library->function<double(double, double)>("bif_test_sin_sum")(0.0, 2.5) == 2.5);
    // another object finds no file and compiles
    NativeCompiler fresh(options_for(cache.path));
    CHECK_FALSE(fresh.loaded(first.key));
    CHECK_FALSE(fresh.compile(add_source).from_cache);
    CHECK(fresh.compiler_runs() == 1);
}

TEST_CASE("a damaged cache entry is rebuilt", "[cpu][native]") {
    TempDir cache;
    fs::path object;
    {
        // gone before the file is damaged in place: it keeps the module it loaded mapped
        NativeCompiler compiler(options_for(cache.path));
        if (!compiler.available()) return;
        object = compiler.compile(add_source).path;
    }
    std::ofstream(object, std::ios::trunc) << "not an ELF file";
    NativeCompiler fresh(options_for(cache.path));
    const NativeModule rebuilt = fresh.compile(add_source);
    CHECK_FALSE(rebuilt.from_cache);
    CHECK(fresh.compiler_runs() == 1);
    CHECK(rebuilt.library->function<double(double, double)>("bif_test_sin_sum")(0.0, 4.0) == 4.0);
}

TEST_CASE("a compile error carries the compiler's log", "[cpu][native]") {
    TempDir cache;
    NativeCompiler compiler(options_for(cache.path));
    if (!compiler.available()) return;
    try {
        compiler.compile("extern \"C\" int broken( { return 1; }\n");
        FAIL("compiling broken code succeeded");
    } catch (const NativeCompileError& e) {
        CHECK(std::string(e.what()).find("rejected the generated code") != std::string::npos);
        CHECK(e.log().find("error") != std::string::npos);
    }
    // Nothing half-made is left to be found as a cache entry.
    for (const auto& entry : fs::directory_iterator(cache.path))
        CHECK(entry.path().extension() != ".so");
}

TEST_CASE("a missing compiler is a clean error", "[cpu][native]") {
    TempDir cache;
    EnvOverride cxx("CXX", "/nonexistent");
    NativeCompiler compiler(options_for(cache.path));
    CHECK_FALSE(compiler.available());
    CHECK(compiler.unavailable_reason() == "no C++ compiler: CXX=/nonexistent is not an executable program");
    try {
        compiler.compile(add_source);
        FAIL("compiled without a compiler");
    } catch (const NativeCompileError& e) {
        CHECK(std::string(e.what()) == compiler.unavailable_reason());
        CHECK(e.log().empty());
    }
}

TEST_CASE("a failing compiler's output is the log", "[cpu][native]") {
    TempDir dir;
    const fs::path script = write_script(dir.path, "failing-c++", "echo boom; exit 3\n");
    NativeCompiler compiler(options_for(dir.path / "cache", script.string()));
    REQUIRE(compiler.available());
    CHECK(compiler.compiler_version() == "fake-compiler 1.0");
    try {
        compiler.compile(add_source);
        FAIL("the failing compiler succeeded");
    } catch (const NativeCompileError& e) {
        CHECK(e.log() == "boom\n");
        CHECK(std::string(e.what()).find("exit status 3") != std::string::npos);
    }
}

TEST_CASE("cancelling stops a compiler that hangs", "[cpu][native][cancel]") {
    TempDir dir;
    const fs::path script = write_script(dir.path, "hanging-c++", "exec sleep 30\n");
    NativeCompiler compiler(options_for(dir.path / "cache", script.string()));
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(50ms);
        cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(compiler.compile(add_source, &cancel), NativeCompileCancelled);
    canceller.join();
    CHECK(std::chrono::steady_clock::now() - start < 2s);
}

TEST_CASE("the cache key covers the flags", "[cpu][native]") {
    TempDir cache;
    NativeCompiler plain(options_for(cache.path));
    NativeCompileOptions options = options_for(cache.path);
    options.extra_flags = {"-DBIF_SOMETHING=1"};
    NativeCompiler flagged(options);
    if (!plain.available()) return;
    CHECK(plain.cache_key(add_source) != flagged.cache_key(add_source));
    CHECK(plain.cache_key(add_source) == NativeCompiler(options_for(cache.path)).cache_key(add_source));
}
