#include "engine/cuda/ensemble_source.h"

#include "engine/cpu/study_spec.h"
#include "engine/study/resolved_study.h"

#include <algorithm>

namespace bif::cuda {

int ensemble_min_blocks(codegen::Precision precision, std::size_t systems, int multiprocessors) {
    const int bound = precision == codegen::Precision::Float ? 6 : 5;
    if (systems == 0 || multiprocessors <= 0) return bound;
    const std::size_t blocks = (systems + ensemble_threads - 1) / ensemble_threads;
    const std::size_t per_multiprocessor =
        (blocks + std::size_t(multiprocessors) - 1) / std::size_t(multiprocessors);
    return int(std::min<std::size_t>(std::size_t(bound), std::max<std::size_t>(3, per_multiprocessor)));
}

std::string ensemble_entry_source(const std::string& model_type, int program, const char* method_tag,
                                  int min_blocks, bool observes_steps) {
    std::string text = "#define BIF_ENSEMBLE_THREADS " + std::to_string(ensemble_threads) + "\n";
    if (min_blocks > 0) text += "#define BIF_ENSEMBLE_MIN_BLOCKS " + std::to_string(min_blocks) + "\n";
    if (!observes_steps) text += "#define BIF_ENSEMBLE_OBSERVES_STEPS 0\n";
    text += "#include \"bif/cuda/ensemble_kernel.cuh\"\n";
    text += "BIF_ENSEMBLE_KERNELS(" + model_type + ", " + std::to_string(program) +
            ", bif::ensemble::methods::" + method_tag + ")\n";
    return text;
}

CompileRequest ensemble_request(const std::string& model_source, const std::string& model_type, int program,
                                const char* method_tag, int min_blocks, bool observes_steps) {
    CompileRequest request;
    request.parts.push_back({"model", model_source});
    request.parts.push_back(
        {"entry", ensemble_entry_source(model_type, program, method_tag, min_blocks, observes_steps)});
    return request;
}

CompileRequest ensemble_request(const study::ResolvedStudy& study, codegen::Precision precision, int program,
                                int min_blocks) {
    const std::string type = "BifModel";
    const cpu::SpecStorage storage(study);
    const ensemble::StudySpec& spec = storage.spec();
    CompileRequest request = ensemble_request(
        codegen::generate_source(study.codegen_request(precision, type)), type, program,
        cpu::method_tag(study.study.solver.method),
        min_blocks == ensemble_min_blocks_default ? ensemble_min_blocks(precision) : min_blocks,
        ensemble::observes_steps(spec));
    if (spec.axis_count > 0) {
        std::string targets;
        for (int a = 0; a < spec.axis_count; ++a)
            targets += (a ? ", " : "") +
                       std::to_string(spec.axis_is_state[a] ? -1 - spec.axis_slot[a] : spec.axis_slot[a]);
        request.parts.back().text =
            "#define BIF_ENSEMBLE_AXIS_TARGETS " + targets + "\n" + request.parts.back().text;
    }
    return request;
}

} // namespace bif::cuda
