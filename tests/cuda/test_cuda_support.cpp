// The CUDA backend's host-only parts: SHA-256 against FIPS 180-4's examples, the FP64-rate table,
// the embedded kernels/ headers against the files, the module cache's file handling, and the
// mapping of NVRTC log lines back to program parts.
#include "engine/cuda/compile_log.h"
#include "engine/cuda/device_info.h"
#include "engine/cuda/embedded_headers.h"
#include "engine/cuda/module_cache.h"
#include "engine/cuda/sha256.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <unistd.h>

using namespace bif::cuda;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path fresh_directory(const std::string& tag) {
    fs::path dir = fs::temp_directory_path() / ("bifscope-cuda-" + tag + "-" + std::to_string(getpid()));
    fs::remove_all(dir);
    return dir;
}

} // namespace

TEST_CASE("SHA-256 matches the FIPS 180-4 examples", "[cuda][sha256]") {
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    // One million 'a' (FIPS 180-2 appendix B.3), fed in uneven pieces across block boundaries.
    Sha256 hash;
    const std::string piece(999, 'a');
    for (int i = 0; i < 1001; ++i)
        hash.update(piece);
    hash.update(std::string(1000000 - 999 * 1001, 'a'));
    CHECK(hash.hex_digest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("length-prefixed fields keep their boundaries", "[cuda][sha256]") {
    CHECK(Sha256().update_field("ab").update_field("c").hex_digest() !=
          Sha256().update_field("a").update_field("bc").hex_digest());
}

TEST_CASE("FP64 rate from the compute capability", "[cuda][device]") {
    struct Row {
        ComputeCapability capability;
        int ratio;
    };
    // CUDA C++ Programming Guide, arithmetic instruction throughput: FP64 results per clock per SM
    // against FP32 (e.g. sm_90: 64 vs 128; sm_89: 2 vs 128; sm_75: 2 vs 64).
    const Row rows[] = {{{6, 0}, 2},  {{7, 0}, 2},  {{8, 0}, 2},  {{9, 0}, 2},  {{10, 0}, 2},
                        {{6, 1}, 32}, {{7, 5}, 32}, {{8, 6}, 64}, {{8, 9}, 64}, {{12, 0}, 64}};
    for (const Row& row : rows) {
        INFO("sm_" << row.capability.number());
        CHECK(fp32_to_fp64_ratio_for(row.capability) == row.ratio);
        DeviceInfo device;
        device.capability = row.capability;
        device.fp32_to_fp64_ratio = fp32_to_fp64_ratio_for(row.capability);
        CHECK(device.default_precision() ==
              (row.ratio == 2 ? bif::codegen::Precision::Double : bif::codegen::Precision::Float));
    }
}

TEST_CASE("every header under kernels/ is embedded with its current text", "[cuda][headers]") {
    const fs::path kernels = fs::path(BIFSCOPE_SOURCE_DIR) / "kernels";
    std::set<std::string> on_disk;
    for (const auto& entry : fs::recursive_directory_iterator(kernels)) {
        const std::string extension = entry.path().extension().string();
        if (entry.is_regular_file() && (extension == ".h" || extension == ".cuh" || extension == ".hpp"))
            on_disk.insert(fs::relative(entry.path(), kernels).generic_string());
    }
    std::set<std::string> embedded;
    for (const EmbeddedHeader& header : embedded_headers()) {
        embedded.insert(header.include_name);
        INFO(header.include_name);
        CHECK(header.view() == read_file(kernels / header.include_name));
        CHECK(header.text[header.size] == '\0'); // NVRTC takes the texts as C strings
    }
    CHECK(embedded == on_disk);
    CHECK(find_embedded_header("bif/config.h") != nullptr);
    CHECK(find_embedded_header("bif/no_such_header.h") == nullptr);
    CHECK(embedded_headers_digest().size() == 64);
}

TEST_CASE("the module cache returns what was stored and ignores damaged entries", "[cuda][cache]") {
    const fs::path dir = fresh_directory("cache");
    const ModuleCache cache(dir);
    const std::string key = sha256_hex("some program");
    CacheEntry entry;
    entry.kind = CodeKind::Cubin;
    entry.architecture = 90;
    const char image[] = "\x7f"
                         "ELF\0\0binary:with:colons\n";
    entry.image = std::string(image, sizeof image - 1); // embedded zeros, colons and newlines survive
    entry.lowered_names = {{"bif::k<M>", "_Z1kI1MEvv"}, {"plain", "plain"}};
    entry.log = "warning: something";

    CHECK_FALSE(cache.load(key).has_value()); // miss on an empty cache
    REQUIRE(cache.store(key, entry));
    auto loaded = cache.load(key);
    REQUIRE(loaded.has_value());
    CHECK(loaded->kind == entry.kind);
    CHECK(loaded->architecture == 90);
    CHECK(loaded->image == entry.image);
    CHECK(loaded->lowered_names == entry.lowered_names);
    CHECK(loaded->log == entry.log);
    CHECK_FALSE(cache.load(sha256_hex("another program")).has_value());

    // No temporary files left behind by the atomic store.
    int files = 0;
    for (const auto& file : fs::directory_iterator(dir))
        files += file.path().extension() == ".module" ? 1 : 100;
    CHECK(files == 1);

    const std::string good = read_file(cache.entry_path(key));
    SECTION("a flipped byte fails the checksum") {
        std::string bad = good;
        bad[bad.size() / 2] ^= 0x20;
        std::ofstream(cache.entry_path(key), std::ios::binary) << bad;
        CHECK_FALSE(cache.load(key).has_value());
    }
    SECTION("a truncated entry is ignored") {
        std::ofstream(cache.entry_path(key), std::ios::binary) << good.substr(0, good.size() - 10);
        CHECK_FALSE(cache.load(key).has_value());
    }
    SECTION("an entry stored under another key is ignored") {
        fs::copy_file(cache.entry_path(key), cache.entry_path(sha256_hex("x")));
        CHECK_FALSE(cache.load(sha256_hex("x")).has_value());
    }
    SECTION("a damaged entry is replaced by the next store") {
        std::ofstream(cache.entry_path(key), std::ios::binary) << "garbage";
        CHECK_FALSE(cache.load(key).has_value());
        REQUIRE(cache.store(key, entry));
        CHECK(cache.load(key).has_value());
    }
    fs::remove_all(dir);
}

TEST_CASE("a disabled or unwritable cache never fails", "[cuda][cache]") {
    CacheEntry entry;
    entry.image = "x";
    CHECK_FALSE(ModuleCache::disabled().enabled());
    CHECK_FALSE(ModuleCache::disabled().store("k", entry));
    CHECK_FALSE(ModuleCache::disabled().load("k").has_value());
    const ModuleCache blocked(fs::path("/proc/bifscope-cannot-write-here"));
    CHECK_FALSE(blocked.store("k", entry));
    CHECK_FALSE(blocked.load("k").has_value());
}

TEST_CASE("the default cache folder follows XDG", "[cuda][cache]") {
    const char* saved_explicit = std::getenv("BIFSCOPE_CUDA_CACHE_DIR");
    const char* saved_xdg = std::getenv("XDG_CACHE_HOME");
    const std::string keep_explicit = saved_explicit ? saved_explicit : "";
    const std::string keep_xdg = saved_xdg ? saved_xdg : "";
    unsetenv("BIFSCOPE_CUDA_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/tmp/xdg-cache", 1);
    CHECK(ModuleCache::default_location().directory() == fs::path("/tmp/xdg-cache/bifscope/cuda"));
    setenv("BIFSCOPE_CUDA_CACHE_DIR", "/tmp/explicit", 1);
    CHECK(ModuleCache::default_location().directory() == fs::path("/tmp/explicit"));
    saved_explicit ? setenv("BIFSCOPE_CUDA_CACHE_DIR", keep_explicit.c_str(), 1)
                   : unsetenv("BIFSCOPE_CUDA_CACHE_DIR");
    saved_xdg ? setenv("XDG_CACHE_HOME", keep_xdg.c_str(), 1) : unsetenv("XDG_CACHE_HOME");
}

TEST_CASE("NVRTC log lines that point into a part are mapped to that part's text", "[cuda][log]") {
    const std::vector<SourcePart> parts = {{"model", "struct M {\n  static void f() { y = 1; }\n};\n"},
                                           {"kernel", "__global__ void k() {}\n"}};
    const std::string log = "model(2): error: identifier \"y\" is undefined\n"
                            "\n"
                            "1 error detected in the compilation of \"bifscope_module.cu\".\n"
                            "bif/config.h(12): warning: something\n"
                            "kernel(7): error: beyond the part's end";
    const auto diagnostics = map_compile_log(log, parts);
    REQUIRE(diagnostics.size() == 2);
    CHECK(diagnostics[0].part == "model");
    CHECK(diagnostics[0].line == 2);
    CHECK(diagnostics[0].line_text == "  static void f() { y = 1; }");
    CHECK(diagnostics[0].message == "model(2): error: identifier \"y\" is undefined");
    CHECK(diagnostics[1].part == "kernel");
    CHECK(diagnostics[1].line == 7);
    CHECK(diagnostics[1].line_text.empty());
    const std::string annotated = annotate_compile_log(log, parts);
    CHECK(annotated.find("is undefined\n    |   static void f() { y = 1; }\n") != std::string::npos);
}
