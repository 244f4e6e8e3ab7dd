// main() for the CUDA tests that need NVRTC (and, with BIF_TEST_NEEDS_GPU, a GPU): where they are
// missing the test prints why and exits 77, which CTest reports as skipped (SKIP_RETURN_CODE 77).
#include "catch_session.h"
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"

#include <cstdio>

int main(int argc, char** argv) {
    const bif::cuda::NvrtcLibrary& nvrtc = bif::cuda::NvrtcLibrary::instance();
    if (!nvrtc.available()) {
        std::printf("SKIPPED: %s\n", nvrtc.unavailable_reason().c_str());
        return 77;
    }
#ifdef BIF_TEST_NEEDS_GPU
    const bif::cuda::DriverLibrary& driver = bif::cuda::DriverLibrary::instance();
    if (!driver.available()) {
        std::printf("SKIPPED: %s\n", driver.unavailable_reason().c_str());
        return 77;
    }
#endif
    std::printf("NVRTC %s from %s\n", nvrtc.version_text().c_str(), nvrtc.path().c_str());
    return bif::test::run_catch_session(argc, argv);
}
