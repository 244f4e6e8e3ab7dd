// The CUDA driver (libcuda.so.1), loaded at run time. Loading never throws, prints or exits: when
// the driver cannot be used, available() is false and unavailable_reason() says why in one line
// (library not found, driver too old, no device, or cuInit's error code and name).
//
// Every driver call goes through BIF_CU_CALL, which throws CudaError with the call, file:line and
// the error's name on failure:
//     BIF_CU_CALL(driver, cuMemAlloc_v2, &pointer, bytes);
#pragma once

#include "engine/cuda/driver_api.h"
#include "engine/cuda/shared_library.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bif::cuda {

class DriverLibrary {
  public:
    // Oldest driver whose API this backend uses (cuDriverGetVersion encoding: 1000*major + 10*minor).
    static constexpr int minimum_version = 11000;

    // The process-wide driver: libcuda.so.1 opened and cuInit(0) called once, on first use (thread-safe).
    static const DriverLibrary& instance() noexcept;
    // A separate load from the given candidates; tests use it to see the reasons.
    static std::unique_ptr<DriverLibrary> load(const std::vector<std::string>& candidates) noexcept;

    DriverLibrary(const DriverLibrary&) = delete;
    DriverLibrary& operator=(const DriverLibrary&) = delete;

    bool available() const noexcept { return unavailable_reason_.empty(); }
    const std::string& unavailable_reason() const noexcept { return unavailable_reason_; }
    int version() const noexcept { return version_; }           // 0 when the library did not load
    int device_count() const noexcept { return device_count_; } // 0 when unavailable

    // The entry points; throws CudaUnavailable (with the reason) when the driver is unavailable.
    const driver::EntryPoints& api() const;

    // Throws CudaError for anything but CUDA_SUCCESS.
    void check(driver::CUresult result, const char* call, const char* file, int line) const;
    // "CUDA_ERROR_OUT_OF_MEMORY", or "CUresult <code>" for a code the driver does not know.
    std::string error_name(driver::CUresult result) const noexcept;
    std::string error_text(driver::CUresult result) const noexcept;

  private:
    DriverLibrary() = default;
    void initialise(const std::vector<std::string>& candidates) noexcept;
    bool resolve_entry_points(std::string& missing) noexcept;

    std::optional<SharedLibrary> library_;
    driver::EntryPoints api_{};
    std::string unavailable_reason_ = "CUDA driver not loaded";
    int version_ = 0;
    int device_count_ = 0;
};

} // namespace bif::cuda

#define BIF_CU_CALL(driver_library, function, ...)                                                           \
    (driver_library).check((driver_library).api().function(__VA_ARGS__), #function, __FILE__, __LINE__)
