// The CPU backend: every core of this machine running the per-system study programs of
// kernels/bif/study. The model is compiled to native code with the system's C++ compiler (cached);
// where there is none, or compiling fails, the same programs run over the compiler-free evaluator,
// and Result::info says which path ran and why.
#pragma once

#include "engine/cpu/native_compiler.h"
#include "engine/study/backend.h"

#include <memory>

namespace bif::cpu {

struct CpuBackendOptions {
    NativeCompileOptions compile; // the native path's compiler and cache
    bool allow_native = true;     // false: always the evaluator
    bool allow_evaluator = true;  // false: a failing compiler is an error instead of a fallback
};

std::unique_ptr<study::Backend> make_cpu_backend(CpuBackendOptions options);
std::unique_ptr<study::Backend> make_cpu_backend();

} // namespace bif::cpu
