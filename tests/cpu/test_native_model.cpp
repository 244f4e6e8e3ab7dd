// The whole native path on a bundled model: generated source + an entry translation unit, compiled
// with the embedded kernels/ headers, agrees with the compiler-free evaluator (an independent path
// through codegen) on the right-hand side, the Jacobian and a study observable.
#include "engine/codegen/host_model.h"
#include "engine/cpu/native_compiler.h"
#include "engine/study/resolved_study.h"

#include <catch2/catch.hpp>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace bif;

namespace {

const char* entry_source = R"(
#include "bif/model_contract.h"
static_assert(bif::GeneratedModel<BifModel>);
extern "C" void bif_entry_rhs(double t, const double* y, const double* p, double* f) { BifModel::rhs(t, y, p, f); }
extern "C" void bif_entry_jacobian(double t, const double* y, const double* p, double* j) { BifModel::jacobian(t, y, p, j); }
extern "C" void bif_entry_observables(double t, const double* y, const double* p, double* o) { BifModel::observables(t, y, p, o); }
extern "C" void bif_entry_complete(double* p) { BifModel::complete_parameters(p); }
)";

using Function = void(double, const double*, const double*, double*);

} // namespace

TEST_CASE("a generated model compiles natively and matches the evaluator", "[cpu][native]") {
    std::string pattern = (fs::temp_directory_path() / "bifscope-native-model-XXXXXX").string();
    const fs::path cache = ::mkdtemp(pattern.data());
    cpu::NativeCompileOptions options;
    options.cache_dir = cache;
    cpu::NativeCompiler compiler(options);
    if (!compiler.available()) {
        WARN("no C++ compiler here: " << compiler.unavailable_reason());
        return;
    }
    study::Study s;
    s.model.path = std::string(BIFSCOPE_MODELS_DIR) + "/keller_miksis.ode";
    s.analysis = study::AnalysisKind::Trajectory;
    s.trajectory.record = {"y1*re", "y2/y1"};
    const study::ResolveResult r = study::resolve_study(s, "");
    REQUIRE(r.resolved);
    const codegen::Request request = r.resolved->codegen_request(codegen::Precision::Double);
    const cpu::NativeModule module = compiler.compile(codegen::generate_source(request) + entry_source);
    auto* rhs = module.library->function<Function>("bif_entry_rhs");
    auto* jacobian = module.library->function<Function>("bif_entry_jacobian");
    auto* observables = module.library->function<Function>("bif_entry_observables");
    auto* complete = module.library->function<void(double*)>("bif_entry_complete");
    REQUIRE((rhs && jacobian && observables && complete));

    codegen::HostModel host(request);
    std::vector<double> p_native = r.resolved->parameter_slots(0), p_host = p_native;
    complete(p_native.data());
    host.complete_parameters(p_host.data());
    for (std::size_t i = 0; i < p_host.size(); ++i)
        CHECK(p_native[i] == Approx(p_host[i]).epsilon(1e-14));
    const double y[2] = {1.3, -0.2};
    double f_native[2], f_host[2], j_native[4], j_host[4], o_native[2], o_host[2];
    rhs(0.37, y, p_native.data(), f_native);
    host.rhs(0.37, y, p_host.data(), f_host);
    jacobian(0.37, y, p_native.data(), j_native);
    host.jacobian(0.37, y, p_host.data(), j_host);
    observables(0.37, y, p_native.data(), o_native);
    host.observables(0.37, y, p_host.data(), o_host);
    for (int i = 0; i < 2; ++i)
        CHECK(f_native[i] == Approx(f_host[i]).epsilon(1e-13));
    for (int i = 0; i < 4; ++i)
        CHECK(j_native[i] == Approx(j_host[i]).epsilon(1e-13).margin(1e-300));
    CHECK(o_native[0] == Approx(1.3 * 10).epsilon(1e-15));
    CHECK(o_host[1] == Approx(-0.2 / 1.3).epsilon(1e-15));
    CHECK(o_native[1] == Approx(o_host[1]).epsilon(1e-15));
    std::error_code ec;
    fs::remove_all(cache, ec);
}
