// The NVRTC compilation service where NVRTC exists (no GPU needed): every kernels/ header compiles
// through NVRTC, a hand-written model runs through the contract kernel in float and double, compile
// errors come back mapped to the model's lines, and the module cache hits, misses and heals.
#include "cuda_test_support.h"
#include "engine/cuda/background_compiles.h"
#include "engine/cuda/compile_process.h"
#include "engine/cuda/device_info.h"
#include "engine/cuda/embedded_headers.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

using namespace bif::cuda;
using bif::cuda::testing::contract_request;
using bif::cuda::testing::fresh_directory;
using bif::cuda::testing::test_file;

namespace {

bool has_entry(const std::string& ptx, const std::string& symbol) {
    return ptx.find(".entry " + symbol) != std::string::npos;
}

// Double-precision instructions or registers in PTX (".f64" appears in both).
bool uses_fp64(const std::string& ptx) {
    return ptx.find(".f64") != std::string::npos;
}

} // namespace

TEST_CASE("every header under kernels/ compiles alone through NVRTC", "[cuda][nvrtc][headers]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    const Target target = compiler.oldest_virtual_target();
    for (const EmbeddedHeader& header : embedded_headers()) {
        INFO(header.include_name);
        CompileRequest request;
        request.parts.push_back({"includer", std::string("#include \"") + header.include_name + "\"\n"});
        try {
            const CompiledModule module = compiler.compile(request, target);
            CHECK(module.kind() == CodeKind::Ptx);
            CHECK(module.image().find(".version") != std::string::npos);
        } catch (const CompileError& error) {
            FAIL(error.what());
        }
    }
}

TEST_CASE("all kernels/ headers compile together, in float and double fast-math too",
          "[cuda][nvrtc][headers]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    std::string all;
    for (const EmbeddedHeader& header : embedded_headers())
        all += std::string("#include \"") + header.include_name + "\"\n";
    for (bool fast_math : {false, true}) {
        CompileRequest request;
        request.parts.push_back({"includer", all});
        request.fast_math = fast_math;
        REQUIRE_NOTHROW(compiler.compile(request, compiler.oldest_virtual_target()));
    }
}

// A float promoted to double: what a double literal in float code compiles to.
static bool promotes_float(const std::string& ptx) {
    return ptx.find("cvt.f64.f32") != std::string::npos;
}

TEST_CASE("the FP64 checks see a double literal in float code", "[cuda][nvrtc][model]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    CompileRequest request;
    request.parts.push_back(
        {"kernel", "extern \"C\" __global__ void k(float* o, float a) { o[0] = a * 0.1; }\n"});
    const CompiledModule promoted = compiler.compile(request, compiler.oldest_virtual_target());
    CHECK(promotes_float(promoted.image()));
    CHECK(uses_fp64(promoted.image()));
    request.parts[0].text = "extern \"C\" __global__ void k(float* o, float a) { o[0] = a * 0.1f; }\n";
    const CompiledModule single = compiler.compile(request, compiler.oldest_virtual_target());
    CHECK_FALSE(promotes_float(single.image()));
    CHECK_FALSE(uses_fp64(single.image()));
}

TEST_CASE("the hand-written model compiles in float and double; float code has no FP64",
          "[cuda][nvrtc][model]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    for (const std::string real : {"float", "double"}) {
        INFO(real);
        const std::string type = "HandLorenz<" + real + ">";
        const CompiledModule module = compiler.compile(contract_request(test_file("hand_lorenz.h"), type),
                                                       compiler.oldest_virtual_target());
        const std::string& symbol = module.lowered_name("contract_kernel<" + type + ">");
        CHECK(symbol.rfind("_Z", 0) == 0);
        CHECK(has_entry(module.image(), symbol));
        CHECK(uses_fp64(module.image()) == (real == "double"));
        CHECK(module.image().back() == '\0');
    }
}

TEST_CASE("machine code is produced without a device", "[cuda][nvrtc][cubin]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    DeviceInfo h100;
    h100.name = "H100 (pretend)";
    h100.capability = {9, 0};
    const Target target = compiler.target_for(h100);
    CHECK(target.kind() == CodeKind::Cubin);
    CHECK(target.architecture() == 90);
    const CompiledModule module =
        compiler.compile(contract_request(test_file("hand_lorenz.h"), "HandLorenz<double>"), target);
    CHECK(module.kind() == CodeKind::Cubin);
    CHECK(module.image().substr(0, 4) == "\x7f"
                                         "ELF");
}

TEST_CASE("the compiler's warm-up compiles for the target and leaves the module cache alone",
          "[cuda][nvrtc][cache]") {
    const std::filesystem::path dir = fresh_directory("nvrtc-warm-up");
    const ModuleCompiler compiler{ModuleCache(dir)};
    DeviceInfo device;
    device.capability = {9, 0};
    compiler.warm_up(compiler.target_for(device));
    // nothing written: the warm-up's program is no one's module
    CHECK((!std::filesystem::exists(dir) || std::filesystem::is_empty(dir)));
    // an unsupported target is NVRTC's error, as for any compile
    CHECK_THROWS(compiler.warm_up(Target::machine_code(1)));
}

TEST_CASE("the target follows the device and what NVRTC supports", "[cuda][nvrtc][target]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    const std::vector<int>& supported = NvrtcLibrary::instance().supported_architectures();
    DeviceInfo device;
    device.name = "pretend";
    for (int architecture : supported) {
        device.capability = {architecture / 10, architecture % 10};
        const Target target = compiler.target_for(device);
        CHECK(target.kind() == CodeKind::Cubin);
        CHECK(target.architecture() == architecture);
        CHECK(target.option() == "-arch=sm_" + std::to_string(architecture));
    }
    device.capability = {99, 9}; // newer than any NVRTC knows: PTX of the newest, JIT-compiled by the driver
    CHECK(compiler.target_for(device).kind() == CodeKind::Ptx);
    CHECK(compiler.target_for(device).architecture() == supported.back());
    device.capability = {1, 0}; // older than any NVRTC supports
    CHECK_THROWS_AS(compiler.target_for(device), CudaUnavailable);
}

TEST_CASE("a compile error names the model's own line", "[cuda][nvrtc][errors]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    const std::string model = "#include \"bif/config.h\"\n"
                              "struct Broken {\n"
                              "    using real = double;\n"
                              "    BIF_HD static void rhs(real* dydt) { dydt[0] = undefined_name; }\n"
                              "};\n";
    CompileRequest request;
    request.parts.push_back({"model", model});
    request.parts.push_back({"kernel", "__global__ void k(double* d) { Broken::rhs(d); }\n"});
    try {
        compiler.compile(request, compiler.oldest_virtual_target());
        FAIL("the undefined name must not compile");
    } catch (const CompileError& error) {
        INFO(error.log());
        REQUIRE_FALSE(error.diagnostics().empty());
        const CompileDiagnostic& first = error.diagnostics().front();
        CHECK(first.part == "model");
        CHECK(first.line == 4);
        CHECK(first.line_text.find("undefined_name") != std::string::npos);
        CHECK(first.message.find("undefined_name") != std::string::npos);
        CHECK(std::string(error.what()).find("    |     BIF_HD static void rhs") != std::string::npos);
    }
}

TEST_CASE("a rejected option is a CompileError carrying NVRTC's words", "[cuda][nvrtc][errors]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    CompileRequest request;
    request.parts.push_back({"kernel", "__global__ void k() {}\n"});
    request.extra_options.push_back("--no-such-option");
    CHECK_THROWS_AS(compiler.compile(request, compiler.oldest_virtual_target()), CompileError);
}

TEST_CASE("the module cache: miss, hit, changed source or options, damaged entry", "[cuda][nvrtc][cache]") {
    const std::filesystem::path dir = fresh_directory("nvrtc-cache");
    const ModuleCompiler compiler{ModuleCache(dir)};
    DeviceInfo device;
    device.capability = {9, 0};
    const Target target = compiler.target_for(device);
    const CompileRequest request = contract_request(test_file("hand_lorenz.h"), "HandLorenz<double>");

    CHECK_FALSE(compiler.cached_module(request, target).has_value());
    const CompiledModule cold = compiler.compile(request, target);
    CHECK_FALSE(cold.from_cache());
    CHECK(std::filesystem::exists(compiler.cache().entry_path(cold.key())));
    // what compile() would take from the cache, without compiling where it could not
    const std::optional<CompiledModule> looked_up = compiler.cached_module(request, target);
    REQUIRE(looked_up.has_value());
    CHECK(looked_up->from_cache());
    CHECK(looked_up->image() == cold.image());

    const CompiledModule warm = compiler.compile(request, target);
    CHECK(warm.from_cache());
    CHECK(warm.key() == cold.key());
    CHECK(warm.image() == cold.image());
    CHECK(warm.lowered_names() == cold.lowered_names());
    std::printf("hand Lorenz (double) for %s: cold compile %.3f s, cached %.4f s\n", target.name().c_str(),
                cold.seconds(), warm.seconds());
    CHECK(warm.seconds() < cold.seconds());

    CompileRequest changed_source = request;
    changed_source.parts[0].text += "// a comment changes the key\n";
    const CompiledModule other = compiler.compile(changed_source, target);
    CHECK_FALSE(other.from_cache());
    CHECK(other.key() != cold.key());

    CompileRequest changed_options = request;
    changed_options.fast_math = true;
    const CompiledModule fast = compiler.compile(changed_options, target);
    CHECK_FALSE(fast.from_cache());
    CHECK(fast.key() != cold.key());

    const CompiledModule ptx = compiler.compile(request, compiler.oldest_virtual_target());
    CHECK_FALSE(ptx.from_cache());
    CHECK(ptx.key() != cold.key());

    std::ofstream(compiler.cache().entry_path(cold.key()), std::ios::binary | std::ios::trunc)
        << "not a module";
    const CompiledModule rebuilt = compiler.compile(request, target);
    CHECK_FALSE(rebuilt.from_cache());
    CHECK(rebuilt.image() == cold.image());
    CHECK(compiler.compile(request, target).from_cache());
    // an entry read before is not read again while its file stays as it was, but a file gone is a miss
    // (the process remembers what it read, never what the folder no longer holds)
    CHECK(compiler.compile(request, target).from_cache());
    std::filesystem::remove(compiler.cache().entry_path(cold.key()));
    CHECK_FALSE(compiler.cached_module(request, target).has_value());
    CHECK_FALSE(compiler.compile(request, target).from_cache());
    std::filesystem::remove_all(dir);
}

namespace {

// Thousands of unrolled transcendental calls: many seconds of NVRTC's optimizer and ptxas.
CompileRequest slow_request() {
    CompileRequest request;
    request.parts.push_back({"kernel", "__global__ void slow(double* x) {\n"
                                       "    double a = x[threadIdx.x];\n"
                                       "#pragma unroll\n"
                                       "    for (int i = 0; i < 20000; ++i) a = sin(a * x[i % 7] + cos(a));\n"
                                       "    x[threadIdx.x] = a;\n"
                                       "}\n"});
    return request;
}

} // namespace

TEST_CASE("a compile that would take long stops within moments of a cancel", "[cuda][nvrtc][cancel]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    const CompileRequest request = slow_request();
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel.store(true);
    });
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_AS(compiler.compile(request, compiler.oldest_virtual_target(), &cancel), CompileCancelled);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    canceller.join();
    CHECK(seconds < 5);
    // the same compiler still compiles after a cancel
    CHECK_NOTHROW(compiler.compile(contract_request(test_file("hand_lorenz.h"), "HandLorenz<double>"),
                                   compiler.oldest_virtual_target()));
}

TEST_CASE("background compiles are killed when their owner goes, not waited for", "[cuda][nvrtc][cancel]") {
    const std::filesystem::path dir = fresh_directory("nvrtc-background");
    ::setenv("BIFSCOPE_CUDA_CACHE_DIR", dir.c_str(), 1);
    const Target target = ModuleCompiler(ModuleCache::disabled()).oldest_virtual_target();
    const auto start = std::chrono::steady_clock::now();
    {
        BackgroundCompiles background; // as the app's backend holds them
        background.start(slow_request(), target);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 5);
    CHECK_FALSE(ModuleCompiler(ModuleCache(dir)).cached(slow_request(), target));
    // asked to finish, the owner waits and the module is in the cache for the next process
    const CompileRequest quick = contract_request(test_file("hand_lorenz.h"), "HandLorenz<double>");
    {
        BackgroundCompiles background(true);
        background.start(quick, target);
    }
    CHECK(ModuleCompiler(ModuleCache(dir)).cached(quick, target));
    ::unsetenv("BIFSCOPE_CUDA_CACHE_DIR");
}
