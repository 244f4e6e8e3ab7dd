#include "engine/cuda/ensemble_source.h"

#include "engine/ensemble/study_spec.h"
#include "engine/study/orbit_columns.h"
#include "engine/study/resolved_study.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace bif::cuda {

int ensemble_min_blocks(codegen::Precision precision, int states, std::size_t systems, int multiprocessors,
                        bool rosenbrock) {
    const bool small = states <= small_model_states;
    // Rosenbrock methods past small models in double hold an iteration matrix that spills at fewer
    // registers (HIRES, 8 states, Rodas4 on an H200: 326 ms at 5 blocks, 101 ms at 3); a small one
    // (Robertson) was faster at 7 blocks than at 4 (Rodas4 14.6 against 15.7 ms at 2^23)
    const int bound = precision == codegen::Precision::Float ? 6
                      : small                                ? 7
                      : rosenbrock                           ? 3
                                                             : 5;
    if (systems == 0 || multiprocessors <= 0) return bound;
    const std::size_t blocks = (systems + ensemble_threads - 1) / ensemble_threads;
    const std::size_t per_multiprocessor =
        (blocks + std::size_t(multiprocessors) - 1) / std::size_t(multiprocessors);
    return int(std::min<std::size_t>(std::size_t(bound), std::max<std::size_t>(3, per_multiprocessor)));
}

int ensemble_min_blocks(const study::ResolvedStudy& study, codegen::Precision precision, std::size_t systems,
                        int multiprocessors) {
    const study::Method method = study.study.solver.method;
    return ensemble_min_blocks(precision, int(study.model->num_states()), systems, multiprocessors,
                               method == study::Method::Rosenbrock23 || method == study::Method::Rodas4);
}

int ensemble_max_registers(int min_blocks) {
    if (min_blocks <= 0) return 0;
    const int registers = 65536 / (int(ensemble_threads) * min_blocks) / 8 * 8;
    return std::min(registers, 255);
}

std::string ensemble_entry_source(const std::string& model_type, int program, const char* method_tag,
                                  const EnsembleKernelOptions& options) {
    std::string text = "#define BIF_ENSEMBLE_THREADS " + std::to_string(ensemble_threads) + "\n";
    if (options.min_blocks > 0)
        text += "#define BIF_ENSEMBLE_MIN_BLOCKS " + std::to_string(options.min_blocks) + "\n";
    if (!options.observes_steps)
        text += "#define BIF_ENSEMBLE_OBSERVES_STEPS 0\n";
    else if (options.one_observed_loop)
        text += "#define BIF_ENSEMBLE_OBSERVES_STEPS 2\n";
    if (options.bounded)
        text += std::string("#define BIF_ENSEMBLE_BOUNDED ") + (*options.bounded ? "1" : "0") + "\n";
    if (options.adaptive)
        text += std::string("#define BIF_ENSEMBLE_ADAPTIVE ") + (*options.adaptive ? "1" : "0") + "\n";
    if (!options.shared_parameters.empty()) {
        text += "#define BIF_ENSEMBLE_SHARED_PARAMETERS ";
        for (std::size_t i = 0; i < options.shared_parameters.size(); ++i)
            text += (i ? ", " : "") + std::to_string(options.shared_parameters[i]);
        text += "\n";
    }
    text += "#include \"bif/cuda/ensemble_kernel.cuh\"\n";
    text += "BIF_ENSEMBLE_KERNELS(" + model_type + ", " + std::to_string(program) +
            ", bif::ensemble::methods::" + method_tag + ")\n";
    if (options.orbits) {
        text += "#define BIF_ORBIT_THREADS " + std::to_string(orbit_threads) + "\n";
        text += "#include \"bif/cuda/orbit_kernel.cuh\"\n";
        text +=
            "BIF_ORBIT_KERNEL(" + model_type + ", bif::ensemble::methods::" + std::string(method_tag) + ")\n";
    }
    return text;
}

namespace {

// Calls of transcendental functions in one generated member function, from its signature to the
// first line that closes a member function; 0 where the model has no such function.
int transcendental_calls(const std::string& model_source, std::string_view signature) {
    const std::size_t begin = model_source.find(signature);
    if (begin == std::string::npos) return 0;
    const std::size_t end = model_source.find("\n    }\n", begin);
    const std::string_view body =
        std::string_view(model_source)
            .substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    static constexpr std::string_view names[] = {"sin(",  "cos(",  "tan(",   "asin(", "acos(", "atan(",
                                                 "sinh(", "cosh(", "tanh(",  "exp(",  "log(",  "log10(",
                                                 "erf(",  "erfc(", "atan2(", "pow("};
    int calls = 0;
    for (std::size_t at = body.find("bif::m::"); at != std::string_view::npos;
         at = body.find("bif::m::", at + 1)) {
        const std::string_view call = body.substr(at + 8);
        for (std::string_view name : names)
            if (call.substr(0, name.size()) == name) ++calls;
    }
    return calls;
}

} // namespace

int generated_model_states(const std::string& model_source) {
    static constexpr std::string_view marker = "static constexpr int num_states = ";
    const std::size_t at = model_source.find(marker);
    if (at == std::string::npos) return 0;
    return std::atoi(model_source.c_str() + at + marker.size());
}

bool ensemble_outline_math(const std::string& model_source) {
    const int rhs = transcendental_calls(model_source, "static void rhs(");
    const int events = transcendental_calls(model_source, "static void events(");
    const int resets = transcendental_calls(model_source, "static bool apply_reset(");
    return rhs + event_evaluation_sites * events + resets >= outline_math_calls;
}

CompileRequest ensemble_request(const std::string& model_source, const std::string& model_type, int program,
                                const char* method_tag, const EnsembleKernelOptions& options) {
    CompileRequest request;
    std::string switches;
    if (options.outline_math.value_or(ensemble_outline_math(model_source)))
        switches += "#define BIF_OUTLINE_MATH\n";
    if (options.roll_state_loops.value_or(generated_model_states(model_source) > rolled_loop_states))
        switches += "#define BIF_ROLL_STATE_LOOPS\n";
    if (options.inline_cold) switches += "#define BIF_ENSEMBLE_INLINE_COLD\n";
    if (!switches.empty()) request.parts.push_back({"switches", switches});
    request.parts.push_back({"model", model_source});
    request.parts.push_back({"entry", ensemble_entry_source(model_type, program, method_tag, options)});
    request.separate_functions = options.separate_functions;
    if (options.separate_functions) {
        if (const int registers = ensemble_max_registers(options.min_blocks); registers > 0)
            request.separate_options.push_back("--maxrregcount=" + std::to_string(registers));
        if (options.outline_rare) request.separate_options.emplace_back("-DBIF_OUTLINE_RARE");
    }
    return request;
}

CompileRequest ensemble_request(const study::ResolvedStudy& study, codegen::Precision precision, int program,
                                int min_blocks) {
    const std::string type = "BifModel";
    EnsembleKernelOptions options;
    const int states = int(study.model->num_states());
    options.min_blocks =
        min_blocks == ensemble_min_blocks_default ? ensemble_min_blocks(study, precision) : min_blocks;
    const ensemble::SpecStorage spec(study);
    options.observes_steps = ensemble::observes_steps(spec.spec());
    options.adaptive = spec.spec().adaptive != 0;
    options.one_observed_loop = spec.spec().adaptive != 0;
    options.shared_parameters = shared_parameter_slots(study);
    options.bounded = study.study.solver.bound > 0;
    options.inline_cold = precision == codegen::Precision::Float && states <= rolled_loop_states;
    options.separate_functions = !options.inline_cold && !study.model->is_map();
    options.orbits = study::refines_orbits(study);
    // a tuning switch for measurements (tests/device/round.sh compile --settings): 0 or 1 overrides the rule
    if (const char* forced = std::getenv("BIFSCOPE_CUDA_OUTLINE_MATH"); forced && *forced)
        options.outline_math = std::string_view(forced) != "0";
    apply_step_loop_switches(options);
    return ensemble_request(codegen::generate_source(study.codegen_request(precision, type)), type, program,
                            ensemble::method_tag(study.study.solver.method), options);
}

void apply_step_loop_switches(EnsembleKernelOptions& options) {
    if (const char* every = std::getenv("BIFSCOPE_CUDA_EVERY_STEP_LOOP");
        every && std::string_view(every) == "1") {
        options.adaptive.reset();
        options.one_observed_loop = false;
    }
    if (const char* one = std::getenv("BIFSCOPE_CUDA_ONE_OBSERVED_LOOP"); one && std::string_view(one) == "0")
        options.one_observed_loop = false;
    if (const char* rare = std::getenv("BIFSCOPE_CUDA_OUTLINE_RARE"); rare && std::string_view(rare) == "0")
        options.outline_rare = false;
    if (const char* roll = std::getenv("BIFSCOPE_CUDA_ROLL_STATE_LOOPS"); roll && *roll)
        options.roll_state_loops = std::string_view(roll) != "0";
}

std::vector<int> shared_parameter_slots(const study::ResolvedStudy& study) {
    std::vector<bool> shared(study.model->num_parameters(), true);
    for (const study::ResolvedAxis& axis : study.axes)
        if (axis.target == study::SweepTarget::Parameter && axis.slot < shared.size())
            shared[axis.slot] = false;
    for (const model::Event& event : study.model->events)
        for (const model::Reset& reset : event.resets)
            if (reset.target == model::Reset::Target::Param && reset.index < shared.size())
                shared[reset.index] = false;
    std::vector<int> slots;
    for (std::size_t i = 0; i < shared.size(); ++i)
        if (shared[i]) slots.push_back(int(i));
    return slots;
}

} // namespace bif::cuda
