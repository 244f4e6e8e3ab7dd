#include "engine/cpu/native_study_program.h"

#include "bif/study/entry.h"
#include "engine/codegen/codegen.h"
#include "engine/study/orbit_columns.h"

#include <stdexcept>

namespace bif::cpu {

std::string study_entry_source(int program, const char* method_tag, bool orbits) {
    std::string text = R"(
#include "bif/study/entry.h"

namespace {
using StudyMethod = bif::ensemble::methods::)";
    text += method_tag;
    text += ";\nconstexpr int study_program = " + std::to_string(program) + ";\n";
    text += R"(using StudyBlock = bif::ensemble::Block<BifModel>;
} // namespace

extern "C" int bif_ensemble_abi() { return bif::ensemble::abi_version; }
extern "C" void* bif_ensemble_make_block(const bif::ensemble::StudySpec* spec) {
    return new StudyBlock(bif::ensemble::make_block(BifModel{}, *spec));
}
extern "C" void bif_ensemble_free_block(void* block) { delete static_cast<StudyBlock*>(block); }
extern "C" int bif_ensemble_carry_words() {
    return bif::ensemble::program_carry_words<study_program, BifModel>();
}
extern "C" int bif_ensemble_advance(const void* block, const bif::ensemble::View<double>* view,
                                    bif::ensemble::index_t system, long long budget) {
    return bif::ensemble::advance_program<study_program, StudyMethod>(
        BifModel{}, *static_cast<const StudyBlock*>(block), *view, system, budget);
}
)";
    if (orbits)
        text += R"(
#include "bif/study/orbit_refine.h"
extern "C" void bif_orbit_refine(const void* block, const bif::ensemble::OrbitView<double>* view,
                                 const bif::ensemble::OrbitSettings* settings, bif::ensemble::index_t system) {
    bif::ensemble::refine_orbit<BifModel, StudyMethod>(BifModel{}, *static_cast<const StudyBlock*>(block), *view,
                                                       *settings, system);
}
)";
    return text;
}

std::string native_study_source(const study::ResolvedStudy& study, const ensemble::SpecStorage& spec) {
    const codegen::Request request = study.codegen_request(codegen::Precision::Double, "BifModel");
    return codegen::generate_source(request) +
           study_entry_source(spec.program(), ensemble::method_tag(study.study.solver.method),
                              study::refines_orbits(study));
}

std::vector<std::string> native_study_flags(const NativeCompiler& compiler, std::string_view source) {
    if (source.find("BIF_NOINLINE") == std::string_view::npos) return {};
    return compiler.large_source_flags();
}

NativeStudyProgram::NativeStudyProgram(const NativeCompiler& compiler, const study::ResolvedStudy& study,
                                       const ensemble::SpecStorage& spec, const std::atomic<bool>* cancel)
    : NativeStudyProgram(compiler, native_study_source(study, spec), spec, cancel) {}

NativeStudyProgram::NativeStudyProgram(const NativeCompiler& compiler, std::string_view source,
                                       const ensemble::SpecStorage& spec, const std::atomic<bool>* cancel) {
    module_ = compiler.compile(source, cancel, native_study_flags(compiler, source));
    const auto& lib = *module_.library;
    auto* abi = lib.function<int()>("bif_ensemble_abi");
    auto* make_block = lib.function<void*(const ensemble::StudySpec*)>("bif_ensemble_make_block");
    free_block_ = lib.function<void(void*)>("bif_ensemble_free_block");
    auto* words = lib.function<int()>("bif_ensemble_carry_words");
    advance_ = lib.function<AdvanceFunction>("bif_ensemble_advance");
    if (!abi || !make_block || !free_block_ || !words || !advance_)
        throw std::runtime_error("the compiled study module lacks its entry functions");
    if (abi() != ensemble::abi_version)
        throw std::runtime_error("the compiled study module was built for another version of the kernels");
    carry_words_ = words();
    // only the source of a study that refines orbits has it (refine_orbit says so where it is missing)
    refine_ = lib.function<RefineFunction>("bif_orbit_refine");
    block_ = make_block(&spec.spec());
}

NativeStudyProgram::~NativeStudyProgram() {
    if (block_ && free_block_) free_block_(block_);
}

void NativeStudyProgram::refine_orbit(const ensemble::OrbitView<double>& view,
                                      const ensemble::OrbitSettings& settings,
                                      ensemble::index_t system) const {
    if (!refine_) throw std::logic_error("this study's module has no orbit refinement");
    refine_(block_, &view, &settings, system);
}

bool NativeStudyProgram::advance(const ensemble::View<double>& view, ensemble::index_t system,
                                 long long budget) const {
    return advance_(block_, &view, system, budget) != 0;
}

} // namespace bif::cpu
