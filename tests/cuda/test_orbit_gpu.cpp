// Orbit refinement on the GPU (kernels/bif/cuda/orbit_kernel.cuh through the CUDA backend) against
// the CPU backend's, on the MPGOS Duffing diagram shrunk to 256 values of k, both in double.
// Both refine with the same kernel header from the diagram's own section points; the diagrams differ
// only in rounding (fused multiply-adds, CUDA's libm), which can change what a chaotic transient
// settles on, so systems are compared where both backends found an orbit of the same period. Where
// the diagram is multistable the two transients may settle on two coexisting orbits of that period
// (points 0.1 or more apart, the first GPU round: 2 of 51); those count apart. The others must be
// the same orbit: the same refined point within 1e-7 (1 + |value|), the same multipliers within 1e-6
// of the largest. The two must agree on the status and period of at least 98% of the systems that
// converged on the CPU, and on the orbit itself for at least 90% of those.
// Skipped (exit 77) without an NVIDIA GPU and driver.
#include "engine/cpu/cpu_backend.h"
#include "engine/cuda/cuda_backend.h"
#include "engine/study/orbit_columns.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <cstdio>

using namespace bif;

namespace {

std::shared_ptr<const study::ResolvedStudy> mpgos_with_orbits(int count, int transient) {
    auto read = study::read_study_file(std::string(BIFSCOPE_SOURCE_DIR) +
                                       "/resources/studies/duffing_bifurcation.json");
    REQUIRE(read.study);
    read.study->sweep.at(0).count = count;
    read.study->bifurcation.transient_sections = transient;
    read.study->bifurcation.orbits.refine = true;
    auto resolved =
        study::resolve_study(*read.study, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies");
    for (const auto& p : resolved.problems)
        UNSCOPED_INFO(p.format());
    REQUIRE(resolved.resolved);
    return resolved.resolved;
}

study::Result run(study::Backend& backend, const study::ResolvedStudy& s) {
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    study::Result r = backend.run(s, control);
    REQUIRE(r.info.complete);
    return r;
}

double value(const study::Result& r, const std::string& name, std::size_t s) {
    const study::NumberColumn* c = r.scalar(name);
    REQUIRE(c);
    return c->values[s];
}

} // namespace

TEST_CASE("the GPU refines the diagram's orbits as the CPU does", "[gpu][orbit]") {
    const auto resolved = mpgos_with_orbits(256, 512);
    auto cpu = cpu::make_cpu_backend();
    auto gpu = cuda::make_cuda_backend();
    const study::Result c = run(*cpu, *resolved);
    const study::Result g = run(*gpu, *resolved);
    REQUIRE(g.info.precision == codegen::Precision::Double);
    for (const auto& note : g.info.notes)
        std::printf("%s\n", note.c_str());
    const std::size_t n = resolved->model->num_states();
    std::size_t cpu_converged = 0, agreeing = 0, compared = 0, other_orbit = 0;
    for (std::size_t s = 0; s < c.system_count; ++s) {
        const double converged = double(int(study::OrbitStatus::Converged));
        if (value(c, "orbit_status", s) != converged) continue;
        ++cpu_converged;
        if (value(g, "orbit_status", s) != converged ||
            value(c, "orbit_period", s) != value(g, "orbit_period", s))
            continue;
        ++agreeing;
        INFO("system " << s << ", k = " << c.axes[0].values[s] << ", period " << value(c, "orbit_period", s));
        bool same_orbit = true; // a coexisting orbit lies far off: 1e-3 separates the two cases widely
        for (const auto& state : resolved->model->states) {
            const double a = value(c, "orbit_" + state.name, s), b = value(g, "orbit_" + state.name, s);
            same_orbit = same_orbit && std::abs(a - b) <= 1e-3 * (1.0 + std::abs(a));
        }
        if (!same_orbit) {
            ++other_orbit;
            continue;
        }
        ++compared;
        for (const auto& state : resolved->model->states) {
            const double a = value(c, "orbit_" + state.name, s), b = value(g, "orbit_" + state.name, s);
            CHECK(std::abs(a - b) <= 1e-7 * (1.0 + std::abs(a)));
        }
        const double largest = value(c, "orbit_max_modulus", s);
        CHECK(std::abs(value(g, "orbit_max_modulus", s) - largest) <= 1e-6 * largest);
        // as sets: a complex pair has one modulus, so its two members come in either order (the
        // first H100 round: system 47's pair conjugated)
        const auto multiplier = [&](const study::Result& r, std::size_t k) {
            const std::string mu = "orbit_mu" + std::to_string(k);
            return std::complex<double>(value(r, mu + "_re", s), value(r, mu + "_im", s));
        };
        for (std::size_t k = 1; k <= n; ++k) {
            double nearest = INFINITY;
            for (std::size_t j = 1; j <= n; ++j)
                nearest = std::min(nearest, std::abs(multiplier(c, k) - multiplier(g, j)));
            CHECK(nearest <= 1e-6 * largest);
        }
        CHECK(value(c, "orbit_stable", s) == value(g, "orbit_stable", s));
    }
    std::printf("orbits: %zu converged on the CPU, %zu with the same status and period on the GPU, %zu of "
                "those on another orbit of that period\n",
                cpu_converged, agreeing, other_orbit);
    // about a fifth of the MPGOS range settles on an orbit of period <= 8 (the 46080-value benchmark:
    // 9214 systems); the rest is chaotic or of a longer period
    CHECK(cpu_converged >= 25);
    CHECK(double(agreeing) >= 0.98 * double(cpu_converged));
    CHECK(double(compared) >= 0.9 * double(agreeing));
}
