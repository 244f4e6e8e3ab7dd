// A run stopped while NVRTC compiles its model ends at once: the compile's process is killed, not
// waited for. The bundled 202-state Schnakenberg chain keeps NVRTC busy for many seconds, so a
// SIGTERM or Ctrl-C a moment into the run meets the compile.
#include "cli_process.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("bifscope-gpu-cancel-" + std::to_string(getpid()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string chain_study() {
    return std::string(R"({"bifscope_study": 1, "model": {"path": ")") + BIFSCOPE_MODELS_DIR +
           R"(/schnakenberg_chain.ode"},
        "sweep": [{"parameter": "a", "from": 0.05, "to": 0.2, "count": 1024}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                     "transient_sections": 2, "recorded_sections": 1, "record": ["u50"]},
        "solver": {"method": "rodas4", "rtol": 1e-6, "atol": 1e-8}})";
}

} // namespace

TEST_CASE("SIGTERM or Ctrl-C during the GPU compile of a big model ends the run within moments",
          "[cuda][cancel][cli]") {
    TempDir dir;
    ::setenv("BIFSCOPE_CUDA_CACHE_DIR", (dir.path / "cache").c_str(), 1); // a cold compile every time
    const std::string study = (dir.path / "chain.json").string();
    std::ofstream(study) << chain_study();
    for (const int signal : {SIGTERM, SIGINT}) {
        const int after_ms = 1500;
        const auto start = std::chrono::steady_clock::now();
        const auto r =
            bif::test::run_cli({"run", study, "--backend", "cuda", "--out", (dir.path / "r.csv").string()},
                               after_ms, 600, signal);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        INFO("signal " << signal << ", " << seconds << " s\n" << r.err);
        CHECK(r.exit_status == 130);
        CHECK(r.err.find("compiling") != std::string::npos); // it was compiling when stopped
        CHECK(seconds < after_ms / 1000.0 + 1.0);
        CHECK_FALSE(fs::exists(dir.path / "r.csv"));
    }
}
