// Compiles every header in kernels/bif through NVRTC as CUDA device code (no GPU needed), with
// float and double models and every stepper, the driver with events and accessories, and the
// Lyapunov wrapper; and checks that a small model's DOPRI5 kernel keeps its state in registers
// (no local-memory frame in the PTX). The stiff benchmark's kernels too (issue 36): the
// hand-written ones of tests/bench/handwritten, and the sections program with the benchmark's
// BIF_ENSEMBLE_KEEP_FINISHED_CARRY. Exits 77 (skipped) where NVRTC cannot be loaded.
#include "catch_session.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The few NVRTC entry points used, declared here so that no CUDA header is needed to build.
using Program = void*;
struct Nvrtc {
    int (*create)(Program*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
    int (*compile)(Program, int, const char* const*) = nullptr;
    int (*log_size)(Program, size_t*) = nullptr;
    int (*log)(Program, char*) = nullptr;
    int (*ptx_size)(Program, size_t*) = nullptr;
    int (*ptx)(Program, char*) = nullptr;
    int (*destroy)(Program*) = nullptr;
    void* handle = nullptr;
};

Nvrtc nvrtc;

bool load_nvrtc() {
    const std::string hint = BIFSCOPE_CUDA_HINT;
    std::vector<std::string> names;
    for (const char* n : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) {
        if (!hint.empty()) names.push_back(hint + "/" + n);
        names.push_back(n);
    }
    for (const auto& n : names)
        if ((nvrtc.handle = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    if (!nvrtc.handle) return false;
    auto sym = [](const char* name) { return dlsym(nvrtc.handle, name); };
    nvrtc.create = reinterpret_cast<decltype(nvrtc.create)>(sym("nvrtcCreateProgram"));
    nvrtc.compile = reinterpret_cast<decltype(nvrtc.compile)>(sym("nvrtcCompileProgram"));
    nvrtc.log_size = reinterpret_cast<decltype(nvrtc.log_size)>(sym("nvrtcGetProgramLogSize"));
    nvrtc.log = reinterpret_cast<decltype(nvrtc.log)>(sym("nvrtcGetProgramLog"));
    nvrtc.ptx_size = reinterpret_cast<decltype(nvrtc.ptx_size)>(sym("nvrtcGetPTXSize"));
    nvrtc.ptx = reinterpret_cast<decltype(nvrtc.ptx)>(sym("nvrtcGetPTX"));
    nvrtc.destroy = reinterpret_cast<decltype(nvrtc.destroy)>(sym("nvrtcDestroyProgram"));
    return nvrtc.create && nvrtc.compile && nvrtc.log_size && nvrtc.log && nvrtc.ptx_size && nvrtc.ptx &&
           nvrtc.destroy;
}

struct Result {
    bool ok = false;
    std::string log;
    std::string ptx;
};

// Compiles `source` with every kernels/bif header available as "bif/<path>".
// `extra`: options after the test's own (e.g. the backend's -default-device).
Result compile(const std::string& source, const std::vector<const char*>& extra = {}) {
    namespace fs = std::filesystem;
    std::vector<std::string> names, texts;
    const fs::path root = fs::path(BIFSCOPE_KERNELS_DIR);
    for (const auto& entry : fs::recursive_directory_iterator(root / "bif")) {
        if (!entry.is_regular_file() || entry.path().extension() != ".h") continue;
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        names.push_back(fs::relative(entry.path(), root).generic_string());
        texts.push_back(text.str());
    }
    std::vector<const char*> name_ptrs, text_ptrs;
    for (std::size_t i = 0; i < names.size(); ++i) {
        name_ptrs.push_back(names[i].c_str());
        text_ptrs.push_back(texts[i].c_str());
    }
    Program prog = nullptr;
    Result r;
    if (nvrtc.create(&prog, source.c_str(), "kernels_test.cu", int(names.size()), text_ptrs.data(),
                     name_ptrs.data()) != 0)
        return r;
    // no -default-device: a helper that lacks BIF_HD must fail here as it would under nvcc
    std::vector<const char*> options{"--std=c++20", "-arch=compute_90"};
    options.insert(options.end(), extra.begin(), extra.end());
    r.ok = nvrtc.compile(prog, int(options.size()), options.data()) == 0;
    size_t size = 0;
    nvrtc.log_size(prog, &size);
    r.log.resize(size);
    nvrtc.log(prog, r.log.data());
    if (r.ok) {
        nvrtc.ptx_size(prog, &size);
        r.ptx.resize(size);
        nvrtc.ptx(prog, r.ptx.data());
    }
    nvrtc.destroy(&prog);
    return r;
}

// A generated-model-like struct for a given real type: a forced Duffing oscillator with a
// section event, an observable and a Jacobian, in the style codegen emits.
std::string model_source(const std::string& name, const std::string& real, const std::string& suffix) {
    const std::string L = suffix;
    return "struct " + name +
           " {\n"
           "  using real = " +
           real +
           ";\n"
           "  static constexpr int num_states = 2, num_params = 3, num_param_slots = 3, num_events = 1,\n"
           "                       num_aux = 0, num_observables = 1;\n"
           "  BIF_HD static constexpr int dimension() { return 2; }\n"
           "  BIF_HD static constexpr int event_count() { return 1; }\n"
           "  BIF_HD static constexpr int param_slot_count() { return 3; }\n"
           "  BIF_HD static constexpr int aux_count() { return 0; }\n"
           "  BIF_HD static constexpr int observable_count() { return 1; }\n"
           "  BIF_HD static void complete_parameters(real*) {}\n"
           "  BIF_HD static void rhs(real t, const real* y, const real* p, real* f) {\n"
           "    f[0] = y[1];\n"
           "    f[1] = -p[0] * y[1] - y[0] * y[0] * y[0] + p[1] * bif::m::cos(p[2] * t);\n"
           "  }\n"
           "  BIF_HD static void jacobian(real, const real* y, const real* p, real* J) {\n"
           "    J[0] = 0.0" +
           L + "; J[1] = 1.0" + L + "; J[2] = -3.0" + L +
           " * y[0] * y[0]; J[3] = -p[0];\n"
           "  }\n"
           "  BIF_HD static void time_derivative(real t, const real*, const real* p, real* ft) {\n"
           "    ft[0] = 0.0" +
           L +
           "; ft[1] = -p[1] * p[2] * bif::m::sin(p[2] * t);\n"
           "  }\n"
           "  BIF_HD static void events(real, const real* y, const real*, real* g) { g[0] = y[0]; }\n"
           "  BIF_HD static int event_direction(int) { return 1; }\n"
           "  BIF_HD static bool apply_reset(int, real, real*, real*) { return false; }\n"
           "  BIF_HD static void aux(real, const real*, const real*, real*) {}\n"
           "  BIF_HD static void observables(real, const real* y, const real*, real* o) { o[0] = y[0]; }\n"
           "};\n";
}

// One thread per system, structure-of-arrays state, as the CUDA backend will launch it.
std::string kernel_source(const std::string& model, const std::string& stepper) {
    return "extern \"C\" __global__ void run_" + model + "_" + stepper + "(" + model + "::real* y, " + model +
           "::real* p, int* status, int count, " + model +
           "::real t_end) {\n"
           "  using M = " +
           model +
           ";\n"
           "  using real = M::real;\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i >= count) return;\n"
           "  const M m{};\n"
           "  real y0[2] = {y[i], y[i + count]};\n"
           "  real pp[3] = {p[i], p[i + count], p[i + 2 * count]};\n"
           "  auto s = bif::make_state<M>(real(0), y0, 2);\n"
           "  bif::" +
           stepper +
           "<M> st;\n"
           "  const auto set = bif::make_settings<real, 2>(real(1e-6), real(1e-6));\n"
           "  bif::EventSettings<real, 1> ev;\n"
           "  bif::AccessorySettings<M> as;\n"
           "  bif::Accessories<M> acc;\n"
           "  bif::AccessoryObserver<M> obs{m, as, acc};\n"
           "  obs.begin(s.t, s.y, pp);\n"
           "  bif::integrate(m, st, s, pp, t_end, set, ev, obs);\n"
           "  y[i] = s.y[0]; y[i + count] = s.y[1]; status[i] = int(s.status);\n"
           "  p[i] = acc.max[0];\n"
           "}\n";
}

} // namespace

TEST_CASE("every kernels/ header compiles through NVRTC for float and double", "[engine][kernels][nvrtc]") {
    std::string src =
        "#include \"bif/config.h\"\n#include \"bif/integrators.h\"\n#include \"bif/model_contract.h\"\n";
    src += model_source("DuffingD", "double", "") + model_source("DuffingF", "float", "f");
    for (const char* model : {"DuffingD", "DuffingF"})
        for (const char* stepper : {"Rk4", "Rkck45", "Dopri5", "Rkc", "Rosenbrock23", "Rodas4", "Iteration"})
            src += kernel_source(model, stepper);
    // the Lyapunov wrapper with one renormalisation
    src += "extern \"C\" __global__ void lyapunov(double* out) {\n"
           "  using T = bif::TangentModel<DuffingD, 2>;\n"
           "  const T tm{};\n"
           "  double y[T::num_states] = {1.0, 0.0};\n"
           "  bif::lyapunov_start(tm, y);\n"
           "  double p[3] = {0.1, 0.3, 1.2};\n"
           "  auto s = bif::make_state<T>(0.0, y, tm.dimension());\n"
           "  bif::Dopri5<T> st;\n"
           "  bif::LyapunovSums<2, double> sums;\n"
           "  bif::integrate(tm, st, s, p, 1.0, bif::make_settings<double, 6>(1e-8, 1e-8));\n"
           "  bif::lyapunov_renormalise(tm, s.y, 1.0, sums);\n"
           "  bif::state_changed(s, st);\n"
           "  out[0] = sums.sum[0];\n"
           "}\n";
    const Result r = compile(src);
    INFO(r.log);
    REQUIRE(r.ok);
    if (const char* dump = std::getenv("BIFSCOPE_DUMP_PTX")) std::ofstream(dump) << r.ptx.c_str();
    // float models must not compute in double: no f64 arithmetic in the float kernels
    const auto start = r.ptx.find(".entry run_DuffingF_Dopri5");
    REQUIRE(start != std::string::npos);
    const auto end = r.ptx.find(".entry", start + 10);
    const std::string float_kernel = r.ptx.substr(start, end - start);
    // (cosf's own slow-path argument reduction multiplies by 2^-64 pi/2 in f64: that one is allowed)
    std::istringstream lines(float_kernel);
    int double_ops = 0;
    for (std::string line; std::getline(lines, line);)
        if (line.find(".f64") != std::string::npos && line.find(".reg") == std::string::npos &&
            line.find("cvt.") == std::string::npos && line.find("0d3BF921FB54442D19") == std::string::npos) {
            UNSCOPED_INFO(line);
            ++double_ops;
        }
    CHECK(double_ops == 0);
}

TEST_CASE("orbit refinement compiles through NVRTC for float and double, events included",
          "[engine][kernels][nvrtc][orbit]") {
    // refine_orbit over a Block and an OrbitView, one thread per system as bif_orbit_refine runs it,
    // with the study's steppers; the model's event goes through the saltation path of the tangents
    std::string src = "#include \"bif/study/orbit_refine.h\"\n";
    src += model_source("DuffingD", "double", "") + model_source("DuffingF", "float", "f");
    for (const char* model : {"DuffingD", "DuffingF"})
        for (const char* method : {"Rk4", "Rkck45", "Dopri5"})
            src += std::string("extern \"C\" __global__ void refine_") + model + "_" + method +
                   "(const bif::ensemble::Block<" + model + ">* block, bif::ensemble::OrbitView<" + model +
                   "::real> view, bif::ensemble::OrbitSettings settings, unsigned long long count) {\n"
                   "  const unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  if (i < count) bif::ensemble::refine_orbit<" +
                   model + ", bif::ensemble::methods::" + method + ">(" + model +
                   "{}, *block, view, settings, i);\n}\n";
    // the multipliers of larger systems: the Hessenberg QR
    src += "extern \"C\" __global__ void eigen4(double* a, double* re, double* im, int* ok) {\n"
           "  ok[0] = bif::ensemble::orbit_detail::hessenberg_eigenvalues<4>(a, 4, re, im);\n}\n";
    const Result r = compile(src);
    INFO(r.log);
    REQUIRE(r.ok);
    CHECK(r.ptx.find(".entry refine_DuffingF_Rkck45") != std::string::npos);
    CHECK(r.ptx.find(".entry eigen4") != std::string::npos);
}

TEST_CASE("a small explicit kernel without events keeps its arrays in registers",
          "[engine][kernels][nvrtc]") {
    std::string src =
        "#include \"bif/config.h\"\n#include \"bif/integrate.h\"\n#include \"bif/steppers/dopri5.h\"\n";
    src += model_source("DuffingD", "double", "");
    src += "extern \"C\" __global__ void plain(double* y, double* p, int count) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i >= count) return;\n"
           "  const DuffingD m{};\n"
           "  double y0[2] = {y[i], y[i + count]};\n"
           "  double pp[3] = {p[i], p[i + count], p[i + 2 * count]};\n"
           "  auto s = bif::make_state<DuffingD>(0.0, y0, 2);\n"
           "  bif::Dopri5<DuffingD> st;\n"
           "  const auto set = bif::make_settings<double, 2>(1e-6, 1e-6);\n"
           "  bif::integrate(m, st, s, pp, 100.0, set);\n"
           "  y[i] = s.y[0]; y[i + count] = s.y[1];\n"
           "}\n";
    const Result r = compile(src);
    INFO(r.log);
    REQUIRE(r.ok);
    // the only local frame allowed is CUDA's own slow path of trigonometric argument reduction
    const auto entry = r.ptx.find(".entry plain");
    REQUIRE(entry != std::string::npos);
    const std::string kernel = r.ptx.substr(entry, r.ptx.find("\n}", entry) - entry);
    CHECK(kernel.find("__local_depot") == std::string::npos);
    CHECK(kernel.find("st.local") == std::string::npos);
}

int main(int argc, char* argv[]) {
    if (!load_nvrtc()) return 77;
    return bif::test::run_catch_session(argc, argv);
}

TEST_CASE("the Rosenbrock steppers' banded path compiles through NVRTC", "[engine][kernels][nvrtc]") {
    // a 20-state tridiagonal chain providing jacobian_band (ProvidesBandedJacobian)
    std::string src =
        "#include \"bif/config.h\"\n#include \"bif/integrators.h\"\n"
        "struct Chain {\n"
        "  using real = double;\n"
        "  static constexpr int num_states = 20, num_params = 1, num_param_slots = 1, num_events = 0,\n"
        "    num_aux = 0, num_observables = 0, jacobian_lower_band = 1, jacobian_upper_band = 1;\n"
        "  BIF_HD static constexpr int dimension() { return num_states; }\n"
        "  BIF_HD static constexpr int event_count() { return 0; }\n"
        "  BIF_HD static constexpr int param_slot_count() { return 1; }\n"
        "  BIF_HD static constexpr int aux_count() { return 0; }\n"
        "  BIF_HD static constexpr int observable_count() { return 0; }\n"
        "  BIF_HD static void complete_parameters(real*) {}\n"
        "  BIF_HD static void rhs(real, const real* y, const real* p, real* f) {\n"
        "    for (int j = 0; j < num_states; ++j)\n"
        "      f[j] = p[0] * ((j > 0 ? y[j - 1] : 1.0) - 2.0 * y[j] + (j + 1 < num_states ? y[j + 1] : "
        "y[j]));\n"
        "  }\n"
        "  BIF_HD static void jacobian(real, const real*, const real* p, real* J) {\n"
        "    for (int i = 0; i < num_states; ++i)\n"
        "      for (int j = 0; j < num_states; ++j)\n"
        "        J[i * num_states + j] = i == j ? -2.0 * p[0] + (i + 1 == num_states ? p[0] : 0.0)\n"
        "                              : (i - j == 1 || j - i == 1 ? p[0] : 0.0);\n"
        "  }\n"
        "  BIF_HD static void jacobian_band(real t, const real* y, const real* p, real* B) {\n"
        "    real J[num_states * num_states];\n"
        "    jacobian(t, y, p, J);\n"
        "    for (int i = 0; i < bif::band_rows(1, 1) * num_states; ++i) B[i] = 0.0;\n"
        "    for (int i = 0; i < num_states; ++i)\n"
        "      for (int j = i > 0 ? i - 1 : 0; j <= i + 1 && j < num_states; ++j)\n"
        "        B[bif::band_index(i, j, 1, 1)] = J[i * num_states + j];\n"
        "  }\n"
        "  BIF_HD static void time_derivative(real, const real*, const real*, real* d) {\n"
        "    for (int i = 0; i < num_states; ++i) d[i] = 0.0;\n"
        "  }\n"
        "  BIF_HD static void events(real, const real*, const real*, real*) {}\n"
        "  BIF_HD static int event_direction(int) { return 0; }\n"
        "  BIF_HD static bool apply_reset(int, real, real*, real*) { return false; }\n"
        "  BIF_HD static void aux(real, const real*, const real*, real*) {}\n"
        "  BIF_HD static void observables(real, const real*, const real*, real*) {}\n"
        "};\n"
        "static_assert(bif::ProvidesBandedJacobian<Chain>, \"banded\");\n";
    for (const char* stepper : {"Rodas4", "Rosenbrock23"}) {
        src += std::string("extern \"C\" __global__ void chain_") + stepper +
               "(double* y, int count) {\n"
               "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "  if (i >= count) return;\n"
               "  double y0[20] = {};\n"
               "  double p[1] = {100.0};\n"
               "  auto s = bif::make_state<Chain>(0.0, y0, 20);\n"
               "  bif::" +
               stepper +
               "<Chain> st;\n"
               "  bif::integrate(Chain{}, st, s, p, 1.0, bif::make_settings<double, 20>(1e-6, 1e-6));\n"
               "  y[i] = s.y[0];\n"
               "}\n";
    }
    const Result r = compile(src);
    INFO(r.log);
    REQUIRE(r.ok);
    CHECK(r.ptx.find(".entry chain_Rodas4") != std::string::npos);
}

namespace {

std::string handwritten(const std::string& file) {
    std::ifstream in(std::string(BIFSCOPE_KERNELS_DIR) + "/../tests/bench/handwritten/" + file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The PTX of kernel `name`; empty where there is none.
std::string ptx_entry(const std::string& ptx, const std::string& name) {
    const auto start = ptx.find(".entry " + name + "(");
    if (start == std::string::npos) return {};
    return ptx.substr(start, ptx.find("\n}", start) - start);
}

} // namespace

// An index taken at run time (b[piv[k]]) had put the first hand-written Rosenbrock23's LU in local
// memory, where it ran at 0.4x Bifscope's kernel: a reference slower than it should be.
TEST_CASE("the stiff benchmark's hand-written Robertson kernels keep their arrays in registers",
          "[engine][kernels][nvrtc]") {
    const std::string support = handwritten("stiff_support.cuh");
    const Result rosenbrock23 = compile(support + handwritten("robertson_rosenbrock23.cu"));
    const Result rodas4 =
        compile(support + handwritten("rodas4_step.cuh") + handwritten("robertson_rodas4.cu"));
    INFO(rosenbrock23.log << rodas4.log);
    REQUIRE(rosenbrock23.ok);
    REQUIRE(rodas4.ok);
    for (const auto& [ptx, kernel] : std::vector<std::pair<std::string, std::string>>{
             {rosenbrock23.ptx, "hand_robertson_rosenbrock23_float"},
             {rosenbrock23.ptx, "hand_robertson_rosenbrock23_double"},
             {rodas4.ptx, "hand_robertson_rodas4_float"},
             {rodas4.ptx, "hand_robertson_rodas4_double"}}) {
        INFO(kernel);
        const std::string text = ptx_entry(ptx, kernel);
        REQUIRE(!text.empty());
        CHECK(text.find("__local_depot") == std::string::npos);
    }
}

TEST_CASE("the stiff benchmark's hand-written HIRES kernel compiles", "[engine][kernels][nvrtc]") {
    const Result r = compile(handwritten("stiff_support.cuh") + handwritten("rodas4_step.cuh") +
                             handwritten("hires_rodas4.cu"));
    INFO(r.log);
    REQUIRE(r.ok);
    CHECK(!ptx_entry(r.ptx, "hand_hires_rodas4_double").empty());
}

// The benchmark reads a finished system's step counts from its carry: with the switch the sections
// program stores the whole carry of a finished system, without it the phase word alone (the host
// side, bench_cuda_stiff, checks the layout on the carried end time).
TEST_CASE("BIF_ENSEMBLE_KEEP_FINISHED_CARRY makes a Rosenbrock23 sections program store finished carries",
          "[engine][kernels][nvrtc]") {
    const auto program = [](bool keep) {
        std::string src = keep ? "#define BIF_ENSEMBLE_KEEP_FINISHED_CARRY\n" : "";
        // NVRTC has no __builtin_memcpy (bif/study/carry.h): the CUDA entry's definition
        src += "#define __builtin_memcpy memcpy\n";
        src += "#include \"bif/config.h\"\n#include \"bif/study/entry.h\"\n";
        src += model_source("DuffingD", "double", "");
        src += "extern \"C\" __global__ void sections(const bif::ensemble::Block<DuffingD>* b,\n"
               "                                      bif::ensemble::View<double> v) {\n"
               "  bif::ensemble::advance_program<bif::ensemble::program_sections,\n"
               "                                 bif::ensemble::methods::Rosenbrock23>(\n"
               "      DuffingD{}, *b, v, blockIdx.x * blockDim.x + threadIdx.x, 1LL << 40);\n"
               "}\n";
        // as the CUDA backend compiles its programs (engine/cuda/module_compiler.cpp)
        return compile(src, {"-default-device"});
    };
    const Result plain = program(false), kept = program(true);
    INFO(plain.log << kept.log);
    REQUIRE(plain.ok);
    REQUIRE(kept.ok);
    CHECK(!ptx_entry(kept.ptx, "sections").empty());
    CHECK(kept.ptx != plain.ptx);
}

TEST_CASE("the LU's BIF_LU_RECIPROCAL_PIVOTS switch compiles into a Rodas4 step",
          "[engine][kernels][nvrtc]") {
    std::string src =
        "#define BIF_LU_RECIPROCAL_PIVOTS\n#include \"bif/config.h\"\n#include \"bif/integrators.h\"\n";
    src += model_source("DuffingD", "double", "");
    src += "extern \"C\" __global__ void stiff(double* y, double* p, int count) {\n"
           "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (i >= count) return;\n"
           "  double y0[2] = {y[i], y[i + count]};\n"
           "  double pp[3] = {p[i], p[i + count], p[i + 2 * count]};\n"
           "  auto s = bif::make_state<DuffingD>(0.0, y0, 2);\n"
           "  bif::Rodas4<DuffingD> st;\n"
           "  const auto set = bif::make_settings<double, 2>(1e-6, 1e-6);\n"
           "  bif::integrate(DuffingD{}, st, s, pp, 10.0, set);\n"
           "  y[i] = s.y[0];\n"
           "}\n";
    const Result r = compile(src);
    INFO(r.log);
    REQUIRE(r.ok);
    CHECK(!ptx_entry(r.ptx, "stiff").empty());
}
