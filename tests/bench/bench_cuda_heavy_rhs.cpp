// The kernels of models whose right-hand sides are mostly transcendental calls (Hodgkin-Huxley:
// 8 exp per evaluation; Keller-Miksis: a pow, two sin, two cos), as the backend compiles them
// (engine/cuda/ensemble_source.h: out-of-line math), of the app's Duffing period map with a
// step accessory, and of the MPGOS relief valve, whose impacts are model events with a reset (the
// event-crossing path of the step loop). Their cold compile (bench_cuda_compile) is traded against this
// kernel time whenever a compile option changes (issue #10): run it once per variant (a BIFSCOPE_CUDA_* or
// BIFSCOPE_NVRTC_* switch, or BENCH_NVRTC_OPTIONS) and compare the lines; the checksum shows
// whether the results changed. Median of 3 after a warm-up, CUDA events. Exits 77 without a GPU.
// BENCH_HEAVY_SYSTEMS=N: systems per study (default 2^16).
#include "engine/cuda/driver_library.h"
#include "engine/cuda/nvrtc_library.h"
#include "handwritten/bench_support.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace bif;

namespace {

std::string hodgkin_huxley_diagram(std::size_t n) {
    return R"({"bifscope_study": 1, "model": {"path": "../models/hodgkin_huxley.ode"},
      "sweep": [{"parameter": "i", "from": 8, "to": 20, "count": )" +
           std::to_string(n) + R"(}],
      "analysis": {"kind": "bifurcation",
                   "section": {"kind": "event", "condition": "v", "direction": "rising", "max_time_between": 200},
                   "transient_sections": 32, "recorded_sections": 16, "record": ["m", "h", "n"]},
      "solver": {"method": "rkck45", "rtol": 1e-8, "atol": 1e-8, "initial_step": 0.01}, "precision": "double"})";
}

std::string keller_miksis_map(std::size_t n) {
    const auto side = std::size_t(std::lround(std::sqrt(double(n))));
    return R"({"bifscope_study": 1, "model": {"path": "../models/keller_miksis.ode"},
      "parameters": {"pa1": 0.5, "pa2": 0.7, "re": 10, "theta": 0}, "initial": {"y1": 1, "y2": 0},
      "sweep": [{"parameter": "f1", "from": 20, "to": 1000, "count": )" +
           std::to_string(side) + R"(, "scale": "log"},
                {"parameter": "f2", "from": 20, "to": 1000, "count": )" +
           std::to_string(side) + R"(, "scale": "log"}],
      "analysis": {"kind": "map",
                   "section": {"kind": "event", "condition": "y2", "direction": "falling", "max_time_between": 1000},
                   "transient_sections": 32, "recorded_sections": 16, "detect_period": false,
                   "accessories": [{"name": "expansion", "expression": "y1 - 1", "reduce": "max", "over": "sections"}]},
      "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10, "initial_step": 1e-2, "min_step": 1e-16,
                 "max_step": 0}, "precision": "double"})";
}

// The app's period map (resources/studies/duffing_period_map.json, shorter): its step accessory
// (max y1 over steps) is considered at every step end and midpoint, and its largest exponent adds a
// tangent vector: the step observer's cost next to the heavy right-hand sides.
std::string duffing_period_map(std::size_t n) {
    const auto side = std::size_t(std::lround(std::sqrt(double(n))));
    return R"({"bifscope_study": 1, "model": {"path": "../models/duffing.ode"},
      "parameters": {"delta": 1, "omega": 1},
      "sweep": [{"parameter": "k", "from": 0.1, "to": 0.4, "count": )" +
           std::to_string(side) + R"(},
                {"parameter": "b", "from": 0.1, "to": 0.5, "count": )" +
           std::to_string(side) + R"(}],
      "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                   "transient_sections": 128, "recorded_sections": 32, "detect_period": true,
                   "period": {"tolerance": 1e-5, "max_period": 32}, "largest_exponent": true,
                   "accessories": [{"name": "max y1", "expression": "y1", "reduce": "max", "over": "steps"}]},
      "solver": {"method": "dopri5", "rtol": 1e-8, "atol": 1e-8, "initial_step": 1e-2}, "precision": "double"})";
}

// The relief valve's impact diagram (resources/studies/relief_valve_impacts.json, shorter): an
// impact (event with a reset) in most periods of the oscillating valves, and event sections.
std::string relief_valve_diagram(std::size_t n) {
    return R"({"bifscope_study": 1, "model": {"path": "../models/relief_valve.ode"},
      "parameters": {"kappa": 1.25, "delta": 10, "beta": 20, "r": 0.8},
      "sweep": [{"parameter": "q", "from": 0.2, "to": 10, "count": )" +
           std::to_string(n) + R"(}],
      "analysis": {"kind": "bifurcation",
                   "section": {"kind": "event", "condition": "y2", "direction": "falling", "max_time_between": 100},
                   "transient_sections": 64, "recorded_sections": 32,
                   "record": [{"expression": "y1", "name": "max y1"},
                              {"expression": "y1", "name": "min y1", "value": "min_between"}]},
      "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10, "initial_step": 1e-3}, "precision": "double"})";
}

// Sum of the finite outputs and the systems that ended well: equal across variants whose kernels
// compute the same thing.
void report(const char* name, bench::BifscopeEnsemble& bifscope) {
    const double ms = bifscope.time_ms(3);
    const ensemble::BatchArrays& out = bifscope.results();
    double sum = 0;
    std::size_t finite = 0, ok = 0;
    for (const std::vector<double>* values : {&out.points, &out.scalars})
        for (double v : *values)
            if (std::isfinite(v)) sum += v, ++finite;
    for (int s : out.status)
        ok += s == 1;
    std::printf("%-16s N=%zu  kernel %9.3f ms | ok %zu | %zu finite outputs, sum %.17g\n", name, out.count,
                ms, ok, finite, sum);
    bench::print_kernel("  advance kernel", bifscope.program().advance_kernel());
    std::fflush(stdout);
}

} // namespace

int main() {
    if (const std::string missing = bench::gpu_missing(); !missing.empty()) {
        std::printf("SKIPPED: %s\n", missing.c_str());
        return 77;
    }
    try {
        const cuda::Context context(0);
        const char* systems = std::getenv("BENCH_HEAVY_SYSTEMS");
        const std::size_t n = systems ? std::size_t(std::atoll(systems)) : std::size_t(1) << 16;
        bench::BifscopeEnsemble hh(context, bench::resolve_json(hodgkin_huxley_diagram(n)),
                                   codegen::Precision::Double);
        report("hodgkin-huxley", hh);
        bench::BifscopeEnsemble km(context, bench::resolve_json(keller_miksis_map(n)),
                                   codegen::Precision::Double);
        report("keller-miksis", km);
        bench::BifscopeEnsemble map(context, bench::resolve_json(duffing_period_map(n)),
                                    codegen::Precision::Double);
        report("duffing-map", map);
        bench::BifscopeEnsemble relief(context, bench::resolve_json(relief_valve_diagram(n)),
                                       codegen::Precision::Double);
        report("relief-valve", relief);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return 0;
}
