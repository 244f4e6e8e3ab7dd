// The native path: the generated model (bif::codegen::generate_source) and an entry translation unit
// that instantiates the study's one program and method from kernels/bif/study, compiled to a shared
// object by NativeCompiler (cached by a hash of the source) and called through extern "C" functions:
//   int   bif_ensemble_abi()                        ensemble::abi_version of the headers it saw
//   void* bif_ensemble_make_block(const StudySpec*) the model's Block, on the heap of the module
//   void  bif_ensemble_free_block(void*)
//   int   bif_ensemble_carry_words()
//   int   bif_ensemble_advance(const void* block, const View<double>*, index_t system, long long budget)
// and, for a study that refines orbits,
//   void  bif_orbit_refine(const void* block, const OrbitView<double>*, const OrbitSettings*, index_t system)
#pragma once

#include "engine/cpu/native_compiler.h"
#include "engine/cpu/study_program.h"
#include "engine/ensemble/study_spec.h"

#include <atomic>
#include <memory>
#include <string>

namespace bif::cpu {

// The entry source for one program and method (a method tag of bif::ensemble::methods); with
// `orbits`, bif_orbit_refine too.
std::string study_entry_source(int program, const char* method_tag, bool orbits = false);
// The whole translation unit NativeStudyProgram compiles for this study (model and entry).
std::string native_study_source(const study::ResolvedStudy& study, const ensemble::SpecStorage& spec);

// The per-source flags of NativeCompiler::compile for this source: large_source_flags() when the
// generator marked functions as too big to inline (BIF_NOINLINE, models above ~64 states), else none.
std::vector<std::string> native_study_flags(const NativeCompiler& compiler, std::string_view source);

class NativeStudyProgram : public StudyProgram {
  public:
    // Throws NativeCompileError (compiler missing or failing), NativeCompileCancelled, or
    // std::runtime_error (the module lacks an entry or was built for another ABI).
    NativeStudyProgram(const NativeCompiler& compiler, const study::ResolvedStudy& study,
                       const ensemble::SpecStorage& spec, const std::atomic<bool>* cancel);
    // The same for the study's source made already (native_study_source).
    NativeStudyProgram(const NativeCompiler& compiler, std::string_view source,
                       const ensemble::SpecStorage& spec, const std::atomic<bool>* cancel);
    ~NativeStudyProgram() override;

    int carry_words() const override { return carry_words_; }
    bool advance(const ensemble::View<double>& view, ensemble::index_t system,
                 long long budget) const override;
    study::CodePath code_path() const override { return study::CodePath::NativeCompiled; }
    void refine_orbit(const ensemble::OrbitView<double>& view, const ensemble::OrbitSettings& settings,
                      ensemble::index_t system) const override;
    const NativeModule& module() const { return module_; }

  private:
    using AdvanceFunction = int(const void*, const ensemble::View<double>*, ensemble::index_t, long long);
    NativeModule module_;
    void* block_ = nullptr;
    void (*free_block_)(void*) = nullptr;
    AdvanceFunction* advance_ = nullptr;
    using RefineFunction = void(const void*, const ensemble::OrbitView<double>*,
                                const ensemble::OrbitSettings*, ensemble::index_t);
    RefineFunction* refine_ = nullptr;
    int carry_words_ = 0;
};

} // namespace bif::cpu
