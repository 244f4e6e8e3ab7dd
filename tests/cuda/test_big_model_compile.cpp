// Big models compile for the GPU in seconds (issue #33): above rolled_loop_states states the kernels
// keep their loops over the states as loops (BIF_ROLL_STATE_LOOPS) and the banded LU keeps its column
// loops, so the study program's code grows no faster than the model's own functions, which are linear
// in its states. Checked on the PTX of the 202-state Schnakenberg chain's stiff diagram (NVRTC only,
// no GPU: PTX needs no ptxas), whose step kernel had not compiled after 5 minutes on an H200 when
// every loop unrolled.
#include "bif/study/entry.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module_compiler.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <sstream>

using namespace bif;

namespace {

// The stiff diagram of tests/device/session7-round.sh: a over 256 values, a stroboscopic section,
// Rodas4 in double.
std::shared_ptr<const study::ResolvedStudy> chain_diagram(const std::string& model_file) {
    const std::string json = R"({"bifscope_study": 1, "model": {"path": ")" +
                             std::string(BIFSCOPE_MODELS_DIR) + "/" + model_file + R"("},
 "sweep": [{"parameter": "a", "from": 0.09, "to": 0.11, "count": 256}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "0.5"},
              "transient_sections": 1, "recorded_sections": 1, "record": ["u50"]},
 "solver": {"method": "rodas4", "rtol": 1e-6, "atol": 1e-8, "initial_step": 1e-4}, "precision": "double"})";
    const study::StudyReadResult read = study::read_study_json(json);
    REQUIRE(read.study);
    const study::ResolveResult r = study::resolve_study(*read.study, "");
    REQUIRE(r.resolved);
    return r.resolved;
}

// PTX instructions per function (.entry or .func): lines inside a body that are neither
// directives, labels, braces nor comments.
std::map<std::string, int> instructions_per_function(const std::string& ptx) {
    std::map<std::string, int> counts;
    std::istringstream in(ptx);
    std::string line, function;
    while (std::getline(in, line)) {
        if (line.rfind(".visible", 0) == 0 || line.rfind(".func", 0) == 0 || line.rfind(".entry", 0) == 0 ||
            line.rfind(".weak", 0) == 0) {
            std::istringstream words(line);
            for (std::string w; words >> w;)
                if (w.rfind("_Z", 0) == 0 || w.rfind("bif_", 0) == 0) function = w.substr(0, w.find('('));
            continue;
        }
        const std::size_t first = line.find_first_not_of(" \t");
        if (function.empty() || first == std::string::npos || first == 0) continue;
        const char c = line[first];
        if (c == '.' || c == '/' || c == '{' || c == '}' || c == '$') continue;
        ++counts[function];
    }
    return counts;
}

} // namespace

TEST_CASE("big models keep their loops; small ones unroll", "[cuda][big-model]") {
    CHECK(cuda::generated_model_states("struct M {\n    static constexpr int num_states = 202;\n") == 202);
    CHECK(cuda::generated_model_states("no model here") == 0);
    const auto has_switch = [](const cuda::CompileRequest& r) {
        return cuda::ModuleCompiler::program_text(r).find("#define BIF_ROLL_STATE_LOOPS") !=
               std::string::npos;
    };
    const auto request = [](const std::string& states) {
        return cuda::ensemble_request("struct BifModel {\n    static constexpr int num_states = " + states +
                                          ";\n};\n",
                                      "BifModel", ensemble::program_sections, "Rodas4");
    };
    CHECK_FALSE(has_switch(request("4")));
    CHECK_FALSE(has_switch(request(std::to_string(cuda::rolled_loop_states))));
    CHECK(has_switch(request(std::to_string(cuda::rolled_loop_states + 1))));
    cuda::EnsembleKernelOptions forced;
    forced.roll_state_loops = false;
    CHECK_FALSE(has_switch(
        cuda::ensemble_request("struct BifModel {\n    static constexpr int num_states = 202;\n};\n",
                               "BifModel", ensemble::program_sections, "Rodas4", forced)));
}

TEST_CASE("the 202-state chain's study program stays linear in its states", "[cuda][big-model]") {
    const auto study = chain_diagram("schnakenberg_chain.ode");
    const int n = int(study->model->num_states());
    REQUIRE(n == 202);
    const cuda::CompileRequest request =
        cuda::ensemble_request(*study, codegen::Precision::Double, ensemble::SpecStorage(*study).program());
    REQUIRE(cuda::ModuleCompiler::program_text(request).find("#define BIF_ROLL_STATE_LOOPS") !=
            std::string::npos);
    const cuda::ModuleCompiler compiler(cuda::ModuleCache::disabled());
    const auto start = std::chrono::steady_clock::now();
    const cuda::CompiledModule ptx = compiler.compile(request, cuda::Target::virtual_architecture(90));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::map<std::string, int> counts = instructions_per_function(ptx.image());
    int total = 0;
    for (const auto& [name, count] : counts)
        total += count;
    REQUIRE(counts.count("bif_ensemble_advance") == 1);
    const int step_kernel = counts.at("bif_ensemble_advance");
    WARN("202-state chain to PTX: " << seconds << " s, " << total << " instructions, step kernel "
                                    << step_kernel);
    // Every loop unrolled, the step kernel held a copy of each loop body per state at every stage,
    // solve and norm, and the banded LU a copy of its elimination per column. Rolled, what grows
    // with the states is the model's own straight-line functions (about 10 instructions per state
    // each for rhs and the banded Jacobian), the copies of state-sized structs and a few loops the
    // compiler still unrolls.
    CHECK(step_kernel <= 20 * n + 2000);
    CHECK(total <= 80 * n + 5000);
}
