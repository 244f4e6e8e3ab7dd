// Resource report of the Bifscope ensemble kernels the CUDA benchmarks run, without a GPU: builds
// the exact NVRTC program the backend compiles for each benchmark study (Lorenz RK4 double and
// float, Duffing RKCK45, the MPGOS Duffing diagram, the logistic and Henon diagrams), compiles it for sm_90
// with ptxas' verbose report, prints registers, stack frame and spills per kernel (the advance
// kernel, and the map-diagram pass where the program has one), and writes each program's text
// (<case>.cu, compilable with nvcc -I kernels) and cubin (<case>.cubin, for cuobjdump -sass) into
// the folder given as the first argument.
//   kernel_report OUT_DIR [ARCH]     ARCH: 90 unless given
#include "engine/cuda/ensemble_source.h"
#include "engine/cuda/module_compiler.h"
#include "engine/cuda/nvrtc_library.h"
#include "engine/ensemble/study_spec.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace bif;

namespace {

std::string lorenz(bool single) {
    return std::string(R"({"bifscope_study": 1, "model": {"path": "../models/lorenz.ode"},
      "initial": {"x": 1, "y": 0, "z": 0},
      "sweep": [{"parameter": "rho", "from": 0, "to": 21, "count": 1024}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                   "transient_sections": 0, "recorded_sections": 1, "record": ["x", "y", "z"]},
      "solver": {"method": "rk4", "initial_step": 0.001},
      "precision": ")") +
           (single ? "float" : "double") + "\"}";
}

std::string logistic(bool single) {
    return std::string(
               R"({"bifscope_study": 1, "model": {"path": "../models/logistic.ode"}, "initial": {"x": 0.2},
      "sweep": [{"parameter": "r", "from": 2.5, "to": 4, "count": 1024}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1"},
                   "transient_sections": 10000, "recorded_sections": 1000, "record": ["x"]},
      "solver": {"method": "iteration", "initial_step": 1},
      "precision": ")") +
           (single ? "float" : "double") + "\"}";
}

const char* duffing = R"({"bifscope_study": 1, "model": {"path": "../models/duffing.ode"},
      "parameters": {"b": 0.3, "delta": 1, "omega": 1}, "initial": {"y1": 0.1, "y2": 0},
      "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": 1024}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                   "transient_sections": 63, "recorded_sections": 1, "record": ["y1", "y2"]},
      "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9, "initial_step": 0.01},
      "precision": "double"})";

// the stiff benchmarks' studies (bench_cuda_stiff.cpp): Robertson and HIRES
std::string robertson(bool single, const char* method) {
    return std::string(R"({"bifscope_study": 1, "model": {"path": "../models/robertson.ode"},
      "parameters": {"k1": 0.04, "k2": 3e7}, "initial": {"y1": 1, "y2": 0, "y3": 0},
      "sweep": [{"parameter": "k3", "from": 0, "to": 1e4, "count": 1024}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1e5"},
                   "transient_sections": 0, "recorded_sections": 1, "record": ["y1", "y2", "y3"]},
      "solver": {"method": ")") +
           method + R"(", "rtol": 1e-3, "atol": 1e-6, "initial_step": 1e-3, "bound": 0, "max_step": 0},
      "precision": ")" +
           (single ? "float" : "double") + "\"}";
}

const char* hires = R"({"bifscope_study": 1, "model": {"text":
      "y1'=-1.71*y1+0.43*y2+8.32*y3+0.0007\ny2'=1.71*y1-8.75*y2\ny3'=-10.03*y3+0.43*y4+0.035*y5\ny4'=8.32*y2+1.71*y3-1.12*y4\ny5'=-1.745*y5+0.43*y6+0.43*y7\ny6'=-k*y6*y8+0.69*y4+1.71*y5-0.43*y6+0.69*y7\ny7'=k*y6*y8-1.81*y7\ny8'=-k*y6*y8+1.81*y7\npar k=280\ninit y1=1,y2=0,y3=0,y4=0,y5=0,y6=0,y7=0,y8=0.0057\ndone\n"},
      "sweep": [{"parameter": "k", "from": 224, "to": 336, "count": 1024}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "321.8122"},
                   "transient_sections": 0, "recorded_sections": 1,
                   "record": ["y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8"]},
      "solver": {"method": "rodas4", "rtol": 1e-6, "atol": 1e-10, "initial_step": 1e-3, "bound": 0,
                 "max_step": 0},
      "precision": "double"})";

std::shared_ptr<const study::ResolvedStudy> resolve(const study::Study& s) {
    auto r = study::resolve_study(s, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies");
    if (!r.resolved) throw std::runtime_error("study does not resolve");
    return r.resolved;
}

std::shared_ptr<const study::ResolvedStudy> from_json(const std::string& json) {
    auto read = study::read_study_json(json);
    if (!read.study || study::has_errors(read.problems)) throw std::runtime_error("bad study");
    return resolve(*read.study);
}

void report(const std::string& name, const study::ResolvedStudy& s, codegen::Precision precision,
            const std::string& dir, int arch) {
    const ensemble::SpecStorage spec(s);
    cuda::CompileRequest request = cuda::ensemble_request(s, precision, spec.program());
    request.extra_options.push_back("--ptxas-options=-v");
    const cuda::ModuleCompiler compiler(cuda::ModuleCache::disabled());
    std::ofstream(dir + "/" + name + ".cu") << cuda::ModuleCompiler::program_text(request);
    const cuda::CompiledModule module = compiler.compile(request, cuda::Target::machine_code(arch));
    std::ofstream(dir + "/" + name + ".cubin", std::ios::binary) << module.image();
    // ptxas prints "Compiling entry function 'X'" then its usage lines
    // and "Function properties for F" before each function's frame line: the step loops
    // (integrate_steps_local, one per observer type) are functions of their own only with the
    // tuning switch BIF_ENSEMBLE_NOINLINE_STEP_LOOP (inlined into the kernel by default)
    std::istringstream log(module.log());
    std::string line, entry, function;
    while (std::getline(log, line)) {
        const auto at = line.find("entry function '");
        if (at != std::string::npos) entry = line.substr(at + 16, line.find('\'', at + 16) - at - 16);
        const auto props = line.find("Function properties for ");
        if (props != std::string::npos) function = line.substr(props + 24);
        if (entry == "bif_map_diagram" && line.find("registers") != std::string::npos) {
            std::printf("%-14s %-19s %s\n", name.c_str(), "map-diagram pass",
                        line.substr(line.find("Used")).c_str());
            continue;
        }
        if (entry != "bif_ensemble_advance") continue;
        const bool loop = function.find("integrate_steps_local") != std::string::npos;
        const char* what = !loop                                              ? "kernel"
                           : function.find("NoObserver") != std::string::npos ? "step loop"
                                                                              : "step loop+observer";
        if (line.find("bytes stack frame") != std::string::npos && (loop || function == entry))
            std::printf("%-14s %-19s %s\n", name.c_str(), what,
                        line.c_str() + line.find_first_of("0123456789"));
        if (line.find("registers") != std::string::npos)
            std::printf("%-14s %-19s %s\n", name.c_str(), "kernel", line.substr(line.find("Used")).c_str());
    }
    std::printf("%-16s compiled in %.2f s\n", name.c_str(), module.seconds());
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: kernel_report OUT_DIR [ARCH]\n");
        return 2;
    }
    const std::string dir = argv[1];
    const int arch = argc > 2 ? std::stoi(argv[2]) : 90;
    if (!cuda::NvrtcLibrary::instance().available()) {
        std::printf("SKIPPED: %s\n", cuda::NvrtcLibrary::instance().unavailable_reason().c_str());
        return 77;
    }
    try {
        const std::string which = argc > 3 ? argv[3] : "all";
        if (which == "all" || which == "lorenz") {
            report("lorenz_double", *from_json(lorenz(false)), codegen::Precision::Double, dir, arch);
            report("lorenz_float", *from_json(lorenz(true)), codegen::Precision::Float, dir, arch);
        }
        if (which == "all" || which == "logistic") {
            report("logistic_double", *from_json(logistic(false)), codegen::Precision::Double, dir, arch);
            report("logistic_float", *from_json(logistic(true)), codegen::Precision::Float, dir, arch);
        }
        if (which == "all" || which == "duffing")
            report("duffing", *from_json(duffing), codegen::Precision::Double, dir, arch);
        if (which == "all" || which == "stiff") {
            for (const char* method : {"rosenbrock23", "rodas4"}) {
                report(std::string("rob_") + method + "_double", *from_json(robertson(false, method)),
                       codegen::Precision::Double, dir, arch);
                report(std::string("rob_") + method + "_float", *from_json(robertson(true, method)),
                       codegen::Precision::Float, dir, arch);
            }
            report("hires_rodas4", *from_json(hires), codegen::Precision::Double, dir, arch);
        }
        if (which == "all" || which == "henon") {
            auto read = study::read_study_file(std::string(BIFSCOPE_SOURCE_DIR) +
                                               "/resources/studies/henon_bifurcation.json");
            if (!read.study) throw std::runtime_error("cannot read the Henon study");
            report("henon", *resolve(*read.study), codegen::Precision::Double, dir, arch);
        }
        if (which == "all" || which == "mpgos") {
            auto read = study::read_study_file(std::string(BIFSCOPE_SOURCE_DIR) +
                                               "/resources/studies/duffing_bifurcation.json");
            if (!read.study) throw std::runtime_error("cannot read the MPGOS study");
            report("mpgos", *resolve(*read.study), codegen::Precision::Double, dir, arch);
        }
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
