// Every bundled model (resources/models/*.ode) goes through the code generator and NVRTC, in float
// and double, with the contract kernel calling every generated function: user models must always
// compile. Float code must never promote a float to double (MPGOS's float kernels silently ran in
// FP64 through double literals): PTX "cvt.f64.f32". Other FP64 instructions may appear: CUDA's own
// sinf/cosf/tanf reduce huge arguments in FP64 (mul.f64 after cvt.rn.f64.s64), a path never taken
// for ordinary arguments.
#include "cuda_test_support.h"
#include "engine/codegen/codegen.h"
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/errors.h"
#include "engine/cuda/module_compiler.h"
#include "engine/model/parse.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <string_view>

using namespace bif::cuda;
using bif::cuda::testing::contract_request;

namespace {

std::vector<std::filesystem::path> bundled_models() {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(BIFSCOPE_MODELS_DIR))
        if (entry.path().extension() == ".ode") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("every bundled model compiles through NVRTC in float and double", "[cuda][nvrtc][models]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    const Target target = compiler.oldest_virtual_target();
    const auto files = bundled_models();
    REQUIRE(files.size() >= 5);
    for (const auto& file : files) {
        INFO(file.filename().string());
        const bif::model::ParseResult parsed = bif::model::load_model_file(file.string());
        REQUIRE(parsed.model.has_value());
        for (const auto precision : {bif::codegen::Precision::Float, bif::codegen::Precision::Double}) {
            const bool is_float = precision == bif::codegen::Precision::Float;
            INFO((is_float ? "float" : "double"));
            bif::codegen::Request request;
            request.model = &*parsed.model;
            request.precision = precision;
            request.type_name = "BifModel";
            const std::string source = bif::codegen::generate_source(request);
            try {
                const CompiledModule module = compiler.compile(contract_request(source, "BifModel"), target);
                const std::string& symbol = module.lowered_name("contract_kernel<BifModel>");
                CHECK(module.image().find(".entry " + symbol) != std::string::npos);
                if (is_float) {
                    CHECK(module.image().find("cvt.f64.f32") == std::string::npos);
                }
            } catch (const CompileError& error) {
                FAIL(error.what());
            }
        }
    }
}

TEST_CASE("the ensemble kernel compiles through NVRTC for every program and method",
          "[cuda][nvrtc][ensemble]") {
    // The study programs (kernels/bif/study) are instantiated only by the ensemble entry, so the
    // headers compiling alone does not cover them: every program with RK4, every method with the
    // section program, a model with events, and float.
    const ModuleCompiler compiler(ModuleCache::disabled());
    const Target target = compiler.oldest_virtual_target();
    struct Case {
        const char* model;
        bif::codegen::Precision precision;
        int program;
        const char* method;
    };
    const auto d = bif::codegen::Precision::Double, f = bif::codegen::Precision::Float;
    std::vector<Case> cases;
    for (int program = 0; program <= 4; ++program)
        cases.push_back({"lorenz.ode", d, program, "Rk4"});
    for (const char* method : {"Rkck45", "Dopri5", "Rkc", "Rosenbrock23", "Rodas4"})
        cases.push_back({"lorenz.ode", d, 0, method});
    cases.push_back({"lorenz.ode", f, 0, "Rk4"});
    cases.push_back({"duffing.ode", f, 0, "Rkck45"});
    cases.push_back({"relief_valve.ode", d, 0, "Rkck45"});
    cases.push_back({"relief_valve.ode", d, 4, "Dopri5"});
    // maps: the section program also gets the map-diagram pass, a kernel of its own
    cases.push_back({"logistic.ode", d, 0, "Iteration"});
    cases.push_back({"logistic.ode", f, 0, "Iteration"});
    cases.push_back({"henon.ode", d, 0, "Iteration"});
    cases.push_back({"henon.ode", d, 1, "Iteration"});
    for (const Case& c : cases) {
        INFO(c.model << " program " << c.program << " " << c.method
                     << (c.precision == f ? " float" : " double"));
        auto parsed = bif::model::load_model_file(std::string(BIFSCOPE_MODELS_DIR) + "/" + c.model);
        REQUIRE(parsed.model.has_value());
        bif::codegen::Request request;
        request.model = &*parsed.model;
        request.precision = c.precision;
        request.type_name = "BifModel";
        // a study's observables: the first state and a section period of 1, without which no system
        // could take the map-diagram pass (its period test would be constant, its body dead code)
        request.observables = {parsed.model->pool.state(0), parsed.model->pool.constant(1.0)};
        // every user parameter shared (BIF_ENSEMBLE_SHARED_PARAMETERS), so that the path that reads
        // them from the block compiles too
        EnsembleKernelOptions options;
        options.min_blocks = 0;
        for (std::size_t i = 0; i < parsed.model->num_parameters(); ++i)
            options.shared_parameters.push_back(int(i));
        try {
            const CompiledModule module =
                compiler.compile(ensemble_request(bif::codegen::generate_source(request), "BifModel",
                                                  c.program, c.method, options),
                                 target);
            CHECK(module.image().find(".entry bif_ensemble_advance") != std::string::npos);
            CHECK(module.image().find("bif_ensemble_block") != std::string::npos);
            // the pass has a body only where it can take systems: the section program of a map
            const std::string& ptx = module.image();
            const std::size_t pass = ptx.find(".entry bif_map_diagram");
            REQUIRE(pass != std::string::npos);
            const std::string pass_body = ptx.substr(pass, ptx.find("\n}", pass) - pass);
            const bool takes_systems = c.program == 0 && std::string_view(c.method) == "Iteration";
            CHECK((pass_body.find("bra") != std::string::npos) == takes_systems);
        } catch (const CompileError& error) {
            FAIL(error.what());
        }
    }
}

// The language features whose generated code holds more than formulas: tables (constant arrays in
// a function of the model struct), besselj/bessely/lgamma, unrolled sums and networks.
TEST_CASE("models with tables, sums, networks and Bessel functions compile through NVRTC",
          "[cuda][nvrtc][models]") {
    const ModuleCompiler compiler(ModuleCache::disabled());
    const Target target = compiler.oldest_virtual_target();
    for (const char* name : {"tables_sums_networks.ode", "special_functions.ode"}) {
        INFO(name);
        const auto parsed =
            bif::model::load_model_file(std::string(BIFSCOPE_SOURCE_DIR) + "/tests/codegen/models/" + name);
        REQUIRE(parsed.model.has_value());
        for (const auto precision : {bif::codegen::Precision::Float, bif::codegen::Precision::Double}) {
            bif::codegen::Request request;
            request.model = &*parsed.model;
            request.precision = precision;
            request.type_name = "BifModel";
            try {
                const CompiledModule module = compiler.compile(
                    contract_request(bif::codegen::generate_source(request), "BifModel"), target);
                CHECK(module.image().find(".entry " + module.lowered_name("contract_kernel<BifModel>")) !=
                      std::string::npos);
                if (precision == bif::codegen::Precision::Float)
                    CHECK(module.image().find("cvt.f64.f32") == std::string::npos);
            } catch (const CompileError& error) {
                FAIL(error.what());
            }
        }
    }
}
