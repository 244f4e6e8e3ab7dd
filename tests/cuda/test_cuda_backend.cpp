// The CUDA backend against the CPU backend on every example study (resources/studies), shrunk to a
// few hundred systems (1024 for maps and basins) and shorter runs, both in double:
//   - every system gets the same status (at least 99.9% of systems, and at most one system of a
//     few hundred: a system at a bifurcation boundary may fail differently after rounding);
//   - bifurcation: the recorded values of every system that the CPU finds periodic (its rows repeat
//     within 1e-6 with a period up to 16) agree within 1e-5 (1 + |value|) in at least 99.9% of them
//     (chaotic systems diverge from any rounding difference, GPU FMA contraction included, so no
//     pointwise agreement is possible for them);
//   - map and basins: the same period in at least 99.9% of systems (at most one of 1024),
//     where the study detects periods;
//   - Lyapunov: exponents within 0.05 + 10% in at least 95% of systems (finite-time averages);
//   - trajectory: every sample within 1e-5 (1 + |value|).
// Systems whose outcome the integrator tolerance does not determine are left out of the value and
// period checks, and counted: CPU runs at 0.1, 0.3 and 0.5 times the tolerance (the step scaled by
// the square root for rk4) must all give the same status, section rows within 1e-5 and period. On multistable
// or chaotic-transient systems any rounding difference (GPU FMA contraction, CUDA's libm) may pick
// another attractor, and so may the tighter CPU run; such systems cannot be compared pointwise.
// BIFSCOPE_GPU_TEST_SYSTEMS (set by the sanitizer rounds) shrinks the runs much further.
#include "engine/cpu/cpu_backend.h"
#include "engine/cuda/cuda_backend.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

using namespace bif;

namespace {

bool sanitizer_round() {
    return std::getenv("BIFSCOPE_GPU_TEST_SYSTEMS") != nullptr;
}

void shrink(study::Study& s) {
    const bool small = sanitizer_round();
    // Period maps and basins get 1024 points, so that "at most one mismatch" means 99.9%.
    const bool grid =
        s.analysis == study::AnalysisKind::ParameterMap || s.analysis == study::AnalysisKind::Basins;
    const double systems = small ? 64 : (grid ? 1024 : 256);
    const double per_axis = s.sweep.size() > 1 ? std::sqrt(systems) : systems;
    for (auto& axis : s.sweep)
        axis.count = std::min(axis.count, int(per_axis));
    const int transient = small ? 8 : 100, recorded = small ? 8 : 32;
    for (auto* sec :
         {&s.bifurcation.transient_sections, &s.map.transient_sections, &s.basins.transient_sections})
        *sec = std::min(*sec, transient);
    for (auto* sec :
         {&s.bifurcation.recorded_sections, &s.map.recorded_sections, &s.basins.recorded_sections})
        *sec = std::min(*sec, recorded);
    s.lyapunov.transient_time = std::min(s.lyapunov.transient_time, small ? 5.0 : 50.0);
    s.lyapunov.averaging_time = std::min(s.lyapunov.averaging_time, small ? 10.0 : 200.0);
    if (s.trajectory.times.empty()) {
        const double t_end = std::min(s.trajectory.t_end, small ? 1.0 : 10.0);
        s.trajectory.output_count = std::max(
            2, int(s.trajectory.output_count * (t_end - s.t0) / std::max(s.trajectory.t_end - s.t0, 1e-9)));
        s.trajectory.t_end = t_end;
    }
    s.precision = study::PrecisionChoice::Double;
}

study::Result run_on(study::Backend& backend, const study::ResolvedStudy& r) {
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    return backend.run(r, control);
}

bool close(double a, double b, double tol) {
    if (std::isnan(a) && std::isnan(b)) return true;
    return std::fabs(a - b) <= tol * (1.0 + std::fabs(a));
}

// The CPU's rows of system i repeat with a period up to 16 (every column within 1e-6).
bool periodic(const study::PointBlock& pts, std::size_t i) {
    const std::size_t rows = pts.rows_filled[i];
    for (std::size_t p = 1; p <= 16 && 2 * p <= rows; ++p) {
        bool all = true;
        for (std::size_t r = 0; r + p < rows && all; ++r)
            for (std::size_t c = 0; c < pts.width() && all; ++c)
                all = close(pts.value(i, r, c), pts.value(i, r + p, c), 1e-6);
        if (all) return true;
    }
    return false;
}

bool rows_agree(const study::PointBlock& a, const study::PointBlock& b, std::size_t i, double tol) {
    if (a.rows_filled[i] != b.rows_filled[i]) return false;
    for (std::size_t r = 0; r < a.rows_filled[i]; ++r)
        for (std::size_t c = 0; c < a.width(); ++c)
            if (!close(a.value(i, r, c), b.value(i, r, c), tol)) return false;
    return true;
}

study::Study tightened(study::Study s, double factor) {
    s.solver.rtol.all *= factor;
    s.solver.atol.all *= factor;
    for (auto& [name, tol] : s.solver.rtol.per_state)
        tol *= factor;
    for (auto& [name, tol] : s.solver.atol.per_state)
        tol *= factor;
    if (s.solver.method == study::Method::Rk4) s.solver.initial_step *= std::sqrt(factor);
    return s;
}

// Whether system i's outcome is the same at the study's tolerance and at tighter ones.
void mark_undetermined(const study::Result& cpu, const study::Result& tight, std::vector<bool>& determined) {
    const auto* period = cpu.scalar("period");
    const auto* tight_period = tight.scalar("period");
    for (std::size_t i = 0; i < cpu.system_count; ++i) {
        bool same = cpu.status[i] == tight.status[i];
        if (same && cpu.analysis == study::AnalysisKind::Bifurcation && periodic(cpu.points, i))
            same = rows_agree(cpu.points, tight.points, i, 1e-5);
        if (same && period && tight_period) same = close(period->values[i], tight_period->values[i], 0.0);
        if (!same) determined[i] = false;
    }
}

void compare(const std::string& name, const study::Result& cpu, const study::Result& gpu,
             const std::vector<bool>& determined) {
    REQUIRE(gpu.system_count == cpu.system_count);
    REQUIRE(gpu.info.complete);
    std::size_t n = 0, same_status = 0;
    for (std::size_t i = 0; i < cpu.system_count; ++i) {
        if (!determined[i]) continue;
        ++n;
        same_status += cpu.status[i] == gpu.status[i];
        if (cpu.status[i] != gpu.status[i] && same_status + 3 > i)
            std::printf("  system %zu: cpu %s, gpu %s\n", i, study::name_of(cpu.status[i]),
                        study::name_of(gpu.status[i]));
    }
    std::printf("%-36s %zu systems, %zu determined by the tolerance: status agrees %zu", name.c_str(),
                cpu.system_count, n, same_status);
    CHECK(2 * n >= cpu.system_count); // the comparison must cover most of the study
    CHECK(same_status + std::max<std::size_t>(1, n / 1000) >= n);
    switch (cpu.analysis) {
    case study::AnalysisKind::Bifurcation: {
        std::size_t considered = 0, agree = 0;
        for (std::size_t i = 0; i < cpu.system_count; ++i) {
            if (!determined[i] || cpu.status[i] != study::SystemStatus::Ok || !periodic(cpu.points, i))
                continue;
            ++considered;
            const bool same = rows_agree(cpu.points, gpu.points, i, 1e-5);
            agree += same;
            if (!same)
                std::printf("  system %zu: first row cpu %.9g, gpu %.9g; rows %u / %u\n", i,
                            cpu.points.value(i, 0, 0), gpu.points.value(i, 0, 0), cpu.points.rows_filled[i],
                            gpu.points.rows_filled[i]);
        }
        std::printf(", periodic %zu, values agree %zu\n", considered, agree);
        CHECK(agree + std::max<std::size_t>(1, considered / 1000) >= considered);
        break;
    }
    case study::AnalysisKind::ParameterMap:
    case study::AnalysisKind::Basins: {
        const auto* a = cpu.scalar("period");
        const auto* b = gpu.scalar("period");
        CHECK((a == nullptr) == (b == nullptr));
        if (!a || !b) {
            std::printf(", no periods detected\n");
            break;
        }
        std::size_t agree = 0;
        for (std::size_t i = 0; i < cpu.system_count; ++i) {
            const bool same = close(a->values[i], b->values[i], 0.0);
            agree += determined[i] && same;
            if (determined[i] && !same)
                std::printf("  system %zu: period cpu %g, gpu %g\n", i, a->values[i], b->values[i]);
        }
        std::printf(", period agrees %zu\n", agree);
        CHECK(agree + std::max<std::size_t>(1, n / 1000) >= n);
        break;
    }
    case study::AnalysisKind::Lyapunov: {
        const auto* a = cpu.scalar("lambda1");
        const auto* b = gpu.scalar("lambda1");
        REQUIRE(a);
        REQUIRE(b);
        std::size_t agree = 0;
        for (std::size_t i = 0; i < cpu.system_count; ++i)
            agree += determined[i] &&
                     (std::fabs(a->values[i] - b->values[i]) <= 0.05 + 0.1 * std::fabs(a->values[i]) ||
                      (std::isnan(a->values[i]) && std::isnan(b->values[i])));
        std::printf(", lambda1 agrees %zu\n", agree);
        CHECK(agree >= n - n / 20);
        break;
    }
    case study::AnalysisKind::Trajectory: {
        const bool agree = rows_agree(cpu.points, gpu.points, 0, 1e-5);
        std::printf(", samples agree %s\n", agree ? "yes" : "no");
        CHECK(agree);
        break;
    }
    }
}

} // namespace

TEST_CASE("the CUDA backend agrees with the CPU backend on every example study", "[cuda][backend][gpu]") {
    auto gpu = cuda::make_cuda_backend();
    const auto why = gpu->availability();
    REQUIRE(why.available);
    auto cpu = bif::cpu::make_cpu_backend();
    const std::string dir = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());
    for (const auto& file : files) {
        DYNAMIC_SECTION(file.filename().string()) {
            auto read = study::read_study_file(file.string());
            REQUIRE(read.study);
            shrink(*read.study);
            const auto resolved = study::resolve_study(*read.study, dir).resolved;
            REQUIRE(resolved);
            if (!gpu->supports(*resolved).available) {
                std::printf("%-36s not run on the GPU: %s\n", file.filename().c_str(),
                            gpu->supports(*resolved).reason.c_str());
                CHECK(resolved->is_continuation());
                continue;
            }
            const study::Result c = run_on(*cpu, *resolved);
            // A bistable system whose outcome rounding decides lands on either attractor: three
            // tighter runs leave about one such system in eight unflagged, instead of one in two.
            std::vector<bool> determined(c.system_count, true);
            for (double factor : {0.1, 0.3, 0.5}) {
                const auto tight = study::resolve_study(tightened(*read.study, factor), dir).resolved;
                REQUIRE(tight);
                mark_undetermined(c, run_on(*cpu, *tight), determined);
            }
            const study::Result g = run_on(*gpu, *resolved);
            CHECK(g.info.backend == "cuda");
            CHECK(g.info.precision == codegen::Precision::Double);
            compare(file.filename().string(), c, g, determined);
        }
    }
}

TEST_CASE("a cancelled GPU run returns promptly with what it finished", "[cuda][backend][gpu]") {
    auto read = study::read_study_file(std::string(BIFSCOPE_SOURCE_DIR) +
                                       "/resources/studies/duffing_bifurcation.json");
    REQUIRE(read.study);
    read.study->sweep.at(0).count = 2048;
    read.study->bifurcation.transient_sections = 1000000; // far longer than the test waits
    const auto resolved =
        study::resolve_study(*read.study, std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies").resolved;
    REQUIRE(resolved);
    auto gpu = cuda::make_cuda_backend();
    std::atomic<bool> cancel{false};
    std::atomic<int> reports{0};
    study::RunControl control(cancel, [&](const study::Progress& p) {
        if (p.phase == "integrating" && ++reports >= 3) cancel.store(true);
    });
    const auto start = std::chrono::steady_clock::now();
    const study::Result r = gpu->run(*resolved, control);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("cancelled after %.2f s (compile %.2f s)\n", seconds, r.info.compile_seconds);
    CHECK_FALSE(r.info.complete);
    CHECK(r.count(study::SystemStatus::NotRun) == r.system_count);
    CHECK(seconds - r.info.compile_seconds < 2.0);
}
