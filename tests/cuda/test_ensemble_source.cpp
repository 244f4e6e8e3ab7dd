// What the CUDA backend tells the kernel headers about a study at compile time: which parameters
// every system shares (read from constant memory by the step loop, so a wrong entry would silently
// replace a swept or reset value), the register bound per precision and ensemble size, the
// step loops a study compiles, and which programs compile as separate functions and link.
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/jit_link_library.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/ensemble/study_spec.h"
#include "engine/model/parse.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>

using namespace bif;

namespace {

// Four parameters; an event assigns c.
const char* kModel = R"(x'=a*y-x
y'=-b*x+d*sin(t)
par a=1,b=2,c=3,d=4
global -1 x {y=-c*y;c=c+1}
init x=1,y=0
done
)";

study::ResolvedStudy resolved(std::vector<study::ResolvedAxis> axes) {
    auto parsed = model::parse_model(kModel);
    REQUIRE(parsed.model.has_value());
    study::ResolvedStudy r;
    r.model = std::make_shared<const model::Model>(std::move(*parsed.model));
    r.axes = std::move(axes);
    return r;
}

} // namespace

TEST_CASE("a parameter is shared unless a sweep or a reset gives a system its own value", "[cuda][source]") {
    REQUIRE(resolved({}).model->num_parameters() == 4);
    // c (slot 2) is assigned by the event: never shared
    CHECK(cuda::shared_parameter_slots(resolved({})) == std::vector<int>{0, 1, 3});
    CHECK(cuda::shared_parameter_slots(resolved({{study::SweepTarget::Parameter, "b", 1}})) ==
          std::vector<int>{0, 3});
    CHECK(cuda::shared_parameter_slots(
              resolved({{study::SweepTarget::Parameter, "d", 3}, {study::SweepTarget::Parameter, "a", 0}})) ==
          std::vector<int>{1});
    // sweeping an initial value leaves the parameters alone, whatever its index
    CHECK(cuda::shared_parameter_slots(resolved({{study::SweepTarget::InitialValue, "y", 1}})) ==
          std::vector<int>{0, 1, 3});
}

TEST_CASE("the entry lines carry the shared slots and the register bound", "[cuda][source]") {
    cuda::EnsembleKernelOptions options;
    options.min_blocks = 7;
    options.shared_parameters = {0, 3};
    const std::string text = cuda::ensemble_entry_source("BifModel", 0, "Rk4", options);
    CHECK(text.find("#define BIF_ENSEMBLE_SHARED_PARAMETERS 0, 3\n") != std::string::npos);
    CHECK(text.find("#define BIF_ENSEMBLE_MIN_BLOCKS 7\n") != std::string::npos);
    CHECK(text.find("BIF_ENSEMBLE_KERNELS(BifModel, 0, bif::ensemble::methods::Rk4)") != std::string::npos);
    // nothing shared: no list at all (an empty initializer would not compile)
    const std::string none = cuda::ensemble_entry_source("BifModel", 0, "Rk4", {});
    CHECK(none.find("BIF_ENSEMBLE_SHARED_PARAMETERS") == std::string::npos);
}

TEST_CASE("the register bound follows the precision, the model size and the ensemble size",
          "[cuda][source]") {
    using codegen::Precision;
    CHECK(cuda::ensemble_min_blocks(Precision::Float, 3) == 6);
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 3) == 7);
    // a step of more than small_model_states states does not fit 72 registers: a looser bound
    CHECK(cuda::ensemble_min_blocks(Precision::Double, cuda::small_model_states) == 7);
    CHECK(cuda::ensemble_min_blocks(Precision::Double, cuda::small_model_states + 1) == 5);
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 28) == 5);
    // 2^20 systems fill 132 multiprocessors many times over: the bound stands
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 2, std::size_t(1) << 20, 132) == 7);
    // 46080 systems are 360 blocks, under 3 per multiprocessor: the loosest bound
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 2, 46080, 132) == 3);
    CHECK(cuda::ensemble_min_blocks(Precision::Float, 2, 4 * 128 * 132, 132) == 4);
    // a Rosenbrock step in double past small models holds the iteration matrix too: 168 registers;
    // a small one keeps the explicit kernels' bound (faster on an H200)
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 3, 0, 0, true) == 7);
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 8, 0, 0, true) == 3);
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 8, 0, 0, false) == 5);
    CHECK(cuda::ensemble_min_blocks(Precision::Float, 3, 0, 0, true) == 6);
    CHECK(cuda::ensemble_min_blocks(Precision::Double, 3, std::size_t(1) << 20, 132, true) == 7);
}

namespace {

std::string generated(const std::string& text) {
    auto parsed = model::parse_model(text);
    REQUIRE(parsed.model.has_value());
    codegen::Request request;
    request.model = &*parsed.model;
    return codegen::generate_source(request);
}

} // namespace

TEST_CASE("transcendental functions go out of line from three call sites in the step kernel",
          "[cuda][source]") {
    // Duffing: one cos in the rhs (and a sin in its time derivative, which does not count)
    const std::string duffing = generated("x'=y\ny'=-d*y+x-x^3+g*cos(w*t)\npar d=0.3,g=0.5,w=1.2\ndone\n");
    CHECK_FALSE(cuda::ensemble_outline_math(duffing));
    // two: still inline; three (exp twice and a power): out of line
    CHECK_FALSE(cuda::ensemble_outline_math(generated("x'=exp(-x)+sin(y)\ny'=-x\ndone\n")));
    const std::string gates = generated("v'=exp(-v)-exp(v/2)\nm'=(1-m)*v^2.5-m\ndone\n");
    CHECK(cuda::ensemble_outline_math(gates));
    // polynomial models never
    CHECK_FALSE(cuda::ensemble_outline_math(generated("x'=10*(y-x)\ny'=x*(28-z)-y\nz'=x*y-8/3*z\ndone\n")));
    // an event function is evaluated at several places of the step loop: the bouncing ball's one sin
    // there is enough; a reset's call counts once (rhs two plus a reset's one: out of line)
    const std::string ball = "x'=v\nv'=-1\nglobal -1 x-a*sin(w*t) {v=(1+e)*a*w*cos(w*t)-e*v}\n"
                             "par e=0.8,a=0.1,w=6.283185307179586\ndone\n";
    CHECK(cuda::ensemble_outline_math(generated(ball)));
    CHECK_FALSE(cuda::ensemble_outline_math(generated("x'=v\nv'=-1\nglobal -1 x {v=-cos(v)}\ndone\n")));
    CHECK(cuda::ensemble_outline_math(generated("x'=v\nv'=-exp(x)*sin(v)\nglobal -1 x {v=-cos(v)}\ndone\n")));
    CHECK_FALSE(
        cuda::ensemble_outline_math(generated("x'=v\nv'=-exp(x)*sin(v)\nglobal -1 x {v=-v}\ndone\n")));

    // the switches come before the model, whose own #include of bif/config.h must see them
    const cuda::CompileRequest request = cuda::ensemble_request(gates, "BifModel", 0, "Rk4", {});
    REQUIRE(request.parts.size() == 3);
    CHECK(request.parts[0].name == "switches");
    CHECK(request.parts[0].text == "#define BIF_OUTLINE_MATH\n");
    CHECK(request.parts[1].name == "model");
    // no switch: no part; an explicit choice overrides the rule
    CHECK(cuda::ensemble_request(duffing, "BifModel", 0, "Rk4", {}).parts.size() == 2);
    cuda::EnsembleKernelOptions forced;
    forced.outline_math = false;
    forced.inline_cold = true;
    const cuda::CompileRequest float_request = cuda::ensemble_request(gates, "BifModel", 0, "Rk4", forced);
    CHECK(float_request.parts[0].text == "#define BIF_ENSEMBLE_INLINE_COLD\n");
}

namespace {

// The entry lines of the Duffing sections program (a stroboscopic diagram) solved with `method`,
// recording y1 at each section or (`extremes`) its maximum between sections.
std::string duffing_entry(const std::string& method, bool extremes = false) {
    const std::string record = extremes ? R"({"expression": "y1", "value": "max_between"})" : R"("y1")";
    const std::string json = R"({"bifscope_study": 1, "model": {"path": "duffing.ode"},
      "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 16}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                   "transient_sections": 4, "recorded_sections": 2, "record": [)" +
                             record + R"(]},
      "solver": {"method": ")" +
                             method + R"(", "initial_step": 0.01}, "precision": "double"})";
    auto read = study::read_study_json(json);
    REQUIRE(read.study);
    auto resolved = study::resolve_study(*read.study, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/models");
    REQUIRE(resolved.resolved);
    return cuda::ensemble_request(*resolved.resolved, codegen::Precision::Double, 0).parts.back().text;
}

} // namespace

TEST_CASE("a study compiles only the step loop its method runs", "[cuda][source]") {
    // the kernel's run-time choice is StudySpec::adaptive, which follows the method: an adaptive
    // method never runs the fixed-step loop, a fixed-step one never the adaptive loop
    CHECK(duffing_entry("rkck45").find("#define BIF_ENSEMBLE_ADAPTIVE 1\n") != std::string::npos);
    CHECK(duffing_entry("dopri5").find("#define BIF_ENSEMBLE_ADAPTIVE 1\n") != std::string::npos);
    CHECK(duffing_entry("rk4").find("#define BIF_ENSEMBLE_ADAPTIVE 0\n") != std::string::npos);
    // a diagram of values at the sections has no step observer; one of extremes between sections
    // has one loop with it for an adaptive method, and the run-time choice of two for RK4 (whose
    // observed steps run checked)
    CHECK(duffing_entry("rkck45").find("#define BIF_ENSEMBLE_OBSERVES_STEPS 0\n") != std::string::npos);
    CHECK(duffing_entry("rkck45", true).find("#define BIF_ENSEMBLE_OBSERVES_STEPS 2\n") != std::string::npos);
    CHECK(duffing_entry("rk4", true).find("BIF_ENSEMBLE_OBSERVES_STEPS") == std::string::npos);
    // the measurements' switch restores the run-time choices (every loop)
    ::setenv("BIFSCOPE_CUDA_EVERY_STEP_LOOP", "1", 1);
    const std::string every = duffing_entry("rkck45", true);
    ::unsetenv("BIFSCOPE_CUDA_EVERY_STEP_LOOP");
    CHECK(every.find("BIF_ENSEMBLE_ADAPTIVE") == std::string::npos);
    CHECK(every.find("BIF_ENSEMBLE_OBSERVES_STEPS") == std::string::npos);
}

namespace {

std::shared_ptr<const study::ResolvedStudy> example_study(const std::string& name) {
    auto read = study::read_study_file(std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies/" + name);
    REQUIRE(read.study);
    auto resolved =
        study::resolve_study(*read.study, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies");
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

// The ELF file type of a cubin: 1 relocatable (NVRTC's -rdc output), 2 executable (loadable).
int elf_type(const std::string& image) {
    REQUIRE(image.size() > 18);
    REQUIRE(image.substr(0, 4) == "\x7f"
                                  "ELF");
    return (unsigned char)image[16] | (unsigned char)image[17] << 8;
}

} // namespace

TEST_CASE("an ODE study's functions are compiled apart under the kernel's register bound", "[cuda][source]") {
    // ptxas' reading of __launch_bounds__(128, blocks): 65536 registers shared, allocated in eights
    CHECK(cuda::ensemble_max_registers(7) == 72);
    CHECK(cuda::ensemble_max_registers(6) == 80);
    CHECK(cuda::ensemble_max_registers(5) == 96);
    CHECK(cuda::ensemble_max_registers(3) == 168);
    CHECK(cuda::ensemble_max_registers(1) == 255);
    CHECK(cuda::ensemble_max_registers(0) == 0);

    const auto relief = example_study("relief_valve_impacts.json");
    const cuda::CompileRequest request = cuda::ensemble_request(*relief, codegen::Precision::Double, 0, 7);
    CHECK(request.separate_functions);
    // in the separately compiled module only: the kernel's register bound for every function, and
    // the step loop's rare paths out of line
    const auto& apart = request.separate_options;
    CHECK(std::find(apart.begin(), apart.end(), "--maxrregcount=72") != apart.end());
    CHECK(apart == std::vector<std::string>{"--maxrregcount=72", "-DBIF_OUTLINE_RARE"});
    cuda::EnsembleKernelOptions inlined;
    inlined.separate_functions = true;
    inlined.outline_rare = false;
    CHECK(cuda::ensemble_request("struct BifModel;", "BifModel", 0, "Rkck45", inlined)
              .separate_options.empty());
    // float programs keep their cold parts inline (nothing to compile apart); a map's diagram pass
    // has a tighter bound of its own than the functions it would call
    CHECK_FALSE(cuda::ensemble_request(*relief, codegen::Precision::Float, 0, 6).separate_functions);
    CHECK_FALSE(
        cuda::ensemble_request(*example_study("logistic_bifurcation.json"), codegen::Precision::Double, 0)
            .separate_functions);
}

TEST_CASE("separately compiled study programs link into loadable machine code", "[cuda][source][nvrtc]") {
    const cuda::NvrtcLibrary& nvrtc = cuda::NvrtcLibrary::instance();
    if (!nvrtc.available()) {
        WARN("skipped: " << nvrtc.unavailable_reason());
        return;
    }
    const cuda::ModuleCompiler compiler(cuda::ModuleCache::disabled());
    const cuda::Target sm90 = cuda::Target::machine_code(90);
    const cuda::JitLinkLibrary& linker = cuda::JitLinkLibrary::instance();
    // events with resets (the crossing code out of line), and a right-hand side whose transcendental
    // functions are out of line: the functions that a 72-register kernel calls, each compiled apart
    for (const char* name : {"relief_valve_impacts.json", "keller_miksis_expansion_map.json"}) {
        INFO(name);
        const auto resolved = example_study(name);
        const cuda::CompileRequest request = cuda::ensemble_request(
            *resolved, codegen::Precision::Double, ensemble::SpecStorage(*resolved).program(), 7);
        REQUIRE(request.separate_functions);
        CHECK(compiler.separates(request, sm90) == linker.available());
        CHECK(compiler.separates(request, cuda::Target::virtual_architecture(90)) == false);
        if (!linker.available()) {
            WARN("compiled whole: " << linker.unavailable_reason());
            continue;
        }
        const auto options = compiler.options(request, sm90);
        CHECK(std::find(options.begin(), options.end(), "-rdc=true") != options.end());
        CHECK(std::find(options.begin(), options.end(), "--maxrregcount=72") != options.end());
        CHECK(std::find(options.begin(), options.end(), "-DBIF_OUTLINE_RARE") != options.end());
        const cuda::CompiledModule linked = compiler.compile(request, sm90);
        CHECK(elf_type(linked.image()) == 2);
        CHECK(linked.image().find("bif_ensemble_advance") != std::string::npos);
        CHECK(linked.image().find("bif_ensemble_block") != std::string::npos);
        // both studies' sections are events: their crossings are handled by a function of its own
        CHECK(linked.image().find("process_crossings") != std::string::npos);
        // what the link turns into that: NVRTC's own relocatable output
        cuda::CompileRequest unlinked = request;
        unlinked.separate_functions = false;
        unlinked.extra_options.push_back("-rdc=true");
        CHECK(elf_type(compiler.compile(unlinked, sm90).image()) == 1);
        // without a linker the same request compiles whole
        const cuda::ModuleCompiler whole(nvrtc, cuda::ModuleCache::disabled(), nullptr);
        CHECK_FALSE(whole.separates(request, sm90));
        const auto whole_options = whole.options(request, sm90);
        CHECK(std::find(whole_options.begin(), whole_options.end(), "-rdc=true") == whole_options.end());
        CHECK(std::find(whole_options.begin(), whole_options.end(), "-DBIF_OUTLINE_RARE") ==
              whole_options.end());
    }
}
