// The run-time loaders on any machine: without a driver they report a one-line reason and nothing
// throws; a fake libcuda (fake_driver.cpp) drives the too-old / no-device / cuInit-error paths;
// NVRTC and nvJitLink are searched for where the toolkit keeps them.
#include "engine/cuda/context.h"
#include "engine/cuda/device_info.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/jit_link_library.h"
#include "engine/cuda/nvrtc_library.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

using namespace bif::cuda;

namespace {

bool one_line(const std::string& text) {
    return !text.empty() && text.find('\n') == std::string::npos;
}

} // namespace

TEST_CASE("the process-wide driver is either usable or says why in one line", "[cuda][loader]") {
    const DriverLibrary& driver = DriverLibrary::instance();
    if (driver.available()) {
        CHECK(driver.unavailable_reason().empty());
        CHECK(driver.version() >= DriverLibrary::minimum_version);
        CHECK(driver.device_count() > 0);
        CHECK(list_devices().size() == static_cast<std::size_t>(driver.device_count()));
    } else {
        INFO(driver.unavailable_reason());
        CHECK(one_line(driver.unavailable_reason()));
        CHECK(driver.device_count() == 0);
        CHECK(list_devices().empty());
        CHECK_THROWS_AS(driver.api(), CudaUnavailable);
        CHECK_THROWS_AS(Context(0), CudaUnavailable);
    }
}

TEST_CASE("a missing driver library is reported as not found", "[cuda][loader]") {
    auto driver = DriverLibrary::load({"/nonexistent/libcuda.so.1", "libbifscope-no-such-driver.so.1"});
    CHECK_FALSE(driver->available());
    CHECK(one_line(driver->unavailable_reason()));
    CHECK(driver->unavailable_reason().find("not found") != std::string::npos);
    CHECK(driver->unavailable_reason().find("tried 2 location(s)") != std::string::npos);
    CHECK(driver->version() == 0);
    CHECK_THROWS_AS(driver->api(), CudaUnavailable);
}

TEST_CASE("a library without the driver API is not taken for the driver", "[cuda][loader]") {
    auto driver = DriverLibrary::load({"libc.so.6"});
    CHECK_FALSE(driver->available());
    CHECK(one_line(driver->unavailable_reason()));
    CHECK(driver->unavailable_reason().find("cuDriverGetVersion") != std::string::npos);
}

TEST_CASE("the fake driver's answers become the documented reasons", "[cuda][loader]") {
    const std::vector<std::string> fake = {BIF_FAKE_DRIVER_PATH};
    SECTION("too old") {
        setenv("BIF_FAKE_DRIVER_VERSION", "10020", 1);
        auto driver = DriverLibrary::load(fake);
        unsetenv("BIF_FAKE_DRIVER_VERSION");
        CHECK_FALSE(driver->available());
        CHECK(driver->version() == 10020);
        CHECK(driver->unavailable_reason() ==
              "NVIDIA driver too old: it supports CUDA 10.2, 11.0 or newer is needed");
    }
    SECTION("no device from cuInit") {
        setenv("BIF_FAKE_CUINIT", "100", 1);
        auto driver = DriverLibrary::load(fake);
        unsetenv("BIF_FAKE_CUINIT");
        CHECK_FALSE(driver->available());
        CHECK(driver->unavailable_reason() == "no CUDA device: cuInit reports CUDA_ERROR_NO_DEVICE (100)");
    }
    SECTION("another cuInit error carries its code and name") {
        setenv("BIF_FAKE_CUINIT", "999", 1);
        auto driver = DriverLibrary::load(fake);
        unsetenv("BIF_FAKE_CUINIT");
        CHECK_FALSE(driver->available());
        CHECK(one_line(driver->unavailable_reason()));
        CHECK(driver->unavailable_reason().find("CUDA_ERROR_UNKNOWN (999)") != std::string::npos);
    }
    SECTION("initialised, but no device listed") {
        auto driver = DriverLibrary::load(fake);
        CHECK_FALSE(driver->available());
        CHECK(driver->unavailable_reason().find("no CUDA device visible") != std::string::npos);
        CHECK_THROWS_AS(Context(*driver, 0), CudaUnavailable);
    }
    SECTION("one device: usable, and driver errors become CudaError with the call's name") {
        setenv("BIF_FAKE_DEVICE_COUNT", "1", 1);
        auto driver = DriverLibrary::load(fake);
        unsetenv("BIF_FAKE_DEVICE_COUNT");
        REQUIRE(driver->available());
        CHECK(driver->device_count() == 1);
        try {
            list_devices(*driver);
            FAIL("the fake's cuDeviceGet fails, so the query must throw");
        } catch (const CudaError& error) {
            CHECK(error.call() == "cuDeviceGet");
            CHECK(error.code() == 999);
            CHECK(error.error_name() == "CUDA_ERROR_UNKNOWN");
            CHECK(error.location().find("device_info.cpp:") != std::string::npos);
        }
    }
}

TEST_CASE("a missing NVRTC is reported as not found", "[cuda][loader]") {
    auto nvrtc = NvrtcLibrary::load({"/nonexistent/libnvrtc.so"});
    CHECK_FALSE(nvrtc->available());
    CHECK(one_line(nvrtc->unavailable_reason()));
    CHECK(nvrtc->unavailable_reason().rfind("NVRTC library not found", 0) == 0);
    CHECK_THROWS_AS(nvrtc->api(), CudaUnavailable);
}

TEST_CASE("NVRTC's search starts at the build-time hint and ends with the loader's default search",
          "[cuda][loader]") {
    const std::vector<std::string> candidates = NvrtcLibrary::default_candidates();
    REQUIRE_FALSE(candidates.empty());
    CHECK(candidates.back().find('/') == std::string::npos);
    bool has_usr_local = false;
    for (const std::string& candidate : candidates)
        has_usr_local = has_usr_local || candidate == "/usr/local/cuda/lib64/libnvrtc.so";
    CHECK(has_usr_local);
    const std::string hint = BIFSCOPE_CUDA_LIBRARY_HINT;
    if (!hint.empty()) CHECK(candidates.front() == hint + "/libnvrtc.so");
    const NvrtcLibrary& nvrtc = NvrtcLibrary::instance();
    if (nvrtc.available()) {
        CHECK(nvrtc.version() >= NvrtcLibrary::minimum_version);
        CHECK_FALSE(nvrtc.supported_architectures().empty());
    } else {
        CHECK(one_line(nvrtc.unavailable_reason()));
    }
}

TEST_CASE("a missing nvJitLink is reported as not found, and linking says so", "[cuda][loader]") {
    auto linker = JitLinkLibrary::load({"/nonexistent/libnvJitLink.so"}, 13);
    CHECK_FALSE(linker->available());
    CHECK(one_line(linker->unavailable_reason()));
    CHECK(linker->unavailable_reason().rfind("nvJitLink library not found", 0) == 0);
    CHECK_THROWS_AS(linker->link_cubin("not a cubin", 90), CudaUnavailable);
}

TEST_CASE("nvJitLink is looked for beside NVRTC first, at NVRTC's major version", "[cuda][loader]") {
    const NvrtcLibrary& nvrtc = NvrtcLibrary::instance();
    const std::vector<std::string> candidates = JitLinkLibrary::candidates_for(nvrtc);
    REQUIRE_FALSE(candidates.empty());
    CHECK(candidates.back().find('/') == std::string::npos);
    const JitLinkLibrary& linker = JitLinkLibrary::instance();
    if (!nvrtc.available()) {
        CHECK_FALSE(linker.available());
        return;
    }
    const std::string folder = std::filesystem::path(nvrtc.path()).parent_path().string();
    if (!folder.empty()) CHECK(candidates.front() == folder + "/libnvJitLink.so");
    const std::string versioned = "libnvJitLink.so." + std::to_string(nvrtc.version() / 1000);
    CHECK(std::any_of(candidates.begin(), candidates.end(),
                      [&](const std::string& c) { return c.ends_with(versioned); }));
    if (linker.available()) {
        // a relocatable program that is not one: nvJitLink's refusal, not a crash
        CHECK_THROWS_AS(linker.link_cubin("\x7f"
                                          "ELF garbage",
                                          90),
                        std::runtime_error);
    } else {
        CHECK(one_line(linker.unavailable_reason()));
    }
}
