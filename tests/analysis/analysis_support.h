// Running a study through the real pipeline for the analysis tests: JSON text -> read and resolve
// against the bundled models -> the CPU backend -> Result. Native modules go to a cache folder of
// this test process, removed at exit.
#pragma once

#include "engine/cpu/cpu_backend.h"
#include "engine/study/resolved_study.h"

#include <atomic>
#include <string>

namespace analysis_test {

// Sanitizer builds run smaller problems (the native modules are not instrumented, but the host side is).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

// The resolved study; fails the test (REQUIRE) on any problem. Model paths are relative to the
// bundled models folder.
std::shared_ptr<const bif::study::ResolvedStudy> resolve(const std::string& json);

bif::cpu::CpuBackendOptions backend_options(bool native = true);

// Runs to completion on `threads` threads (0: all).
bif::study::Result run(const std::string& json, bool native = true, unsigned threads = 0);
bif::study::Result run(const bif::study::ResolvedStudy& study, bool native = true, unsigned threads = 0);

// The column of a Result's point block by name (REQUIREs that it exists).
std::size_t point_column(const bif::study::Result& r, const std::string& name);

} // namespace analysis_test
