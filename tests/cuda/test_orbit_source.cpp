// Orbit refinement in the CUDA backend's module, without a GPU: a study that refines its orbits
// gets bif_orbit_refine (kernels/bif/cuda/orbit_kernel.cuh) beside its diagram kernels, and that
// module compiles through NVRTC to machine code, whole and (where nvJitLink exists) as separately
// compiled functions linked; for a 2-state model (the multipliers' closed form; double and float,
// whole and linked) and a 3-state one (the Hessenberg QR; double, whole). Skipped where NVRTC cannot be
// loaded.
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/jit_link_library.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/orbit_columns.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <catch2/catch.hpp>

using namespace bif;

namespace {

std::shared_ptr<const study::ResolvedStudy> resolve(const std::string& json) {
    const study::StudyReadResult read = study::read_study_json(json);
    REQUIRE(read.study);
    const study::ResolveResult resolved = study::resolve_study(*read.study, BIFSCOPE_MODELS_DIR);
    for (const auto& p : resolved.problems)
        UNSCOPED_INFO(p.format());
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

// The MPGOS Duffing diagram (2 states) or a Lorenz diagram (3 states; a stroboscopic section of an
// autonomous flow, enough for a compile), with refinement or not.
std::string diagram(const std::string& model, const std::string& record, bool refine) {
    return R"({"bifscope_study": 1, "model": {"path": ")" + model + R"("},
        "sweep": [{"parameter": ")" +
           std::string(model == "duffing.ode" ? "k" : "rho") + R"(", "from": 0.2, "to": 0.3, "count": 64}],
        "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi"},
                     "transient_sections": 16, "recorded_sections": 16, "record": )" +
           record + R"(, "orbits": {"refine": )" + (refine ? "true" : "false") + R"(}},
        "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9}})";
}

std::string entry_of(const cuda::CompileRequest& request) {
    for (const auto& part : request.parts)
        if (part.name == "entry") return part.text;
    return {};
}

} // namespace

TEST_CASE("a study that refines orbits has the refinement kernel in its module", "[cuda][source][orbit]") {
    const auto with = resolve(diagram("duffing.ode", R"(["y1", "y2"])", true));
    const auto without = resolve(diagram("duffing.ode", R"(["y1", "y2"])", false));
    REQUIRE(study::refines_orbits(*with));
    const int program = ensemble::SpecStorage(*with).program();
    const std::string entry = entry_of(cuda::ensemble_request(*with, codegen::Precision::Double, program));
    CHECK(entry.find("BIF_ORBIT_KERNEL(BifModel, bif::ensemble::methods::Rkck45)") != std::string::npos);
    CHECK(entry.find("#define BIF_ORBIT_THREADS " + std::to_string(cuda::orbit_threads)) !=
          std::string::npos);
    // a diagram without refinement keeps its module (and its cache entry) as before
    const std::string plain = entry_of(cuda::ensemble_request(*without, codegen::Precision::Double, program));
    CHECK(plain.find("orbit") == std::string::npos);
}

TEST_CASE("the refinement kernel compiles through NVRTC to machine code", "[cuda][nvrtc][orbit]") {
    const cuda::NvrtcLibrary& nvrtc = cuda::NvrtcLibrary::instance();
    if (!nvrtc.available()) {
        WARN("skipped: " << nvrtc.unavailable_reason());
        return;
    }
    const cuda::ModuleCompiler compiler(cuda::ModuleCache::disabled());
    const cuda::Target sm90 = cuda::Target::machine_code(90);
    const bool links = cuda::JitLinkLibrary::instance().available();
    struct Case {
        const char* model;
        const char* record;
    };
    for (const Case c : {Case{"duffing.ode", R"(["y1", "y2"])"}, Case{"lorenz.ode", "[]"}}) {
        const auto resolved = resolve(diagram(c.model, c.record, true));
        // both precisions for the 2-state model, double for the 3-state one (each compile takes seconds)
        const bool two_states = resolved->model->num_states() == 2;
        for (codegen::Precision precision : {codegen::Precision::Double, codegen::Precision::Float}) {
            if (!two_states && precision == codegen::Precision::Float) continue;
            INFO(c.model << (precision == codegen::Precision::Float ? " float" : " double"));
            cuda::CompileRequest request =
                cuda::ensemble_request(*resolved, precision, ensemble::SpecStorage(*resolved).program());
            cuda::CompileRequest whole = request;
            whole.separate_functions = false;
            const cuda::CompiledModule module = compiler.compile(whole, sm90);
            CHECK(module.image().find("bif_orbit_refine") != std::string::npos);
            CHECK(module.image().find("bif_ensemble_advance") != std::string::npos);
            if (links && request.separate_functions && two_states && precision == codegen::Precision::Double)
                CHECK(compiler.compile(request, sm90).image().find("bif_orbit_refine") != std::string::npos);
        }
    }
}
