// The CUDA backend against the CPU backend on every example study (resources/studies), shrunk to a
// few hundred systems (1024 for maps and basins) and shorter runs, both in double.
//
// GPU and CPU run the same per-system program and differ only in rounding (where a * b + c becomes
// a fused multiply-add, CUDA's libm). Where rounding decides a system's outcome (a chaotic
// transient that settles on one attractor or another, or not yet; a decaying oscillation whose
// section crossings reach the noise level), the CPU itself changes the outcome when an initial
// step or a swept value moves by one unit in the last place: on the shrunk Duffing period map 14 to
// 28 of 1024 periods change with each such move, about 55 systems in all. So the GPU's outcome of
// each system is compared with the outcomes the CPU backend produces under rounding: the nominal run
// and perturbed_runs() runs at the same tolerance whose swept values and initial step moved by 1 to
// 128 ulps, up and down, half of them without FMA contraction. The GPU's outcome of a system
// agrees when one of those runs produced it:
//   - every study: the same status;
//   - bifurcation (status ok): where the CPU's rows repeat within 1e-6 with a period up to 16,
//     every recorded value within 1e-5 (1 + |value|); where they do not (chaotic: no pointwise
//     agreement is possible), the GPU's rows do not repeat either;
//   - map and basins: the same period, where the study detects periods;
//   - Lyapunov: lambda1 within 0.05 + 10% (finite-time averages);
//   - trajectory (one system): every sample within 1e-5 (1 + |value|) of the nominal CPU run.
// Every system counts. At most 0.1% of them (at least one) may disagree, 5% for the Lyapunov
// exponents, plus what one more rounding of the CPU would: rounding-decided systems have rare
// outcomes (a period 3, 4 or 5 in a chaotic transient) that a finite number of runs misses, so each
// CPU run is checked against the others (leave one out) for the expected count of such misses,
// and three standard deviations of it are allowed on top (about 0.9 expected, 5 allowed, of 1024
// on the shrunk Duffing period map; 0 to 0.3 on the other studies). Printed per study: the
// agreement with the nominal CPU run alone, the systems on which the CPU runs disagree among
// themselves, the misses of the GPU and of a CPU rounding, and the first 20 missed systems.
// BIFSCOPE_GPU_TEST_SYSTEMS (set by the sanitizer rounds) shrinks the runs much further.
#include "engine/cpu/cpu_backend.h"
#include "engine/cuda/cuda_backend.h"
#include "engine/cuda/jit_link_library.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <unistd.h>

using namespace bif;

namespace {

bool sanitizer_round() {
    return std::getenv("BIFSCOPE_GPU_TEST_SYSTEMS") != nullptr;
}

int perturbed_runs() {
    return sanitizer_round() ? 4 : 16;
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

// A module cache of the test's own (BIFSCOPE_CUDA_CACHE_DIR) while it lives, so that the first
// compile is cold; the variable is restored and the folder removed however the test ends.
class OwnModuleCache {
  public:
    explicit OwnModuleCache(const std::string& name)
        : dir_(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(getpid()))) {
        std::filesystem::remove_all(dir_);
        if (const char* old = std::getenv("BIFSCOPE_CUDA_CACHE_DIR")) saved_ = old;
        setenv("BIFSCOPE_CUDA_CACHE_DIR", dir_.c_str(), 1);
    }
    OwnModuleCache(const OwnModuleCache&) = delete;
    OwnModuleCache& operator=(const OwnModuleCache&) = delete;
    ~OwnModuleCache() {
        if (saved_)
            setenv("BIFSCOPE_CUDA_CACHE_DIR", saved_->c_str(), 1);
        else
            unsetenv("BIFSCOPE_CUDA_CACHE_DIR");
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

  private:
    std::filesystem::path dir_;
    std::optional<std::string> saved_;
};

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

// The study moved by rounding: run j (1-based) shifts every swept value and the initial step by
// 2^((j - 1) / 2) units in the last place (1, 1, 2, 2, 4, 4, ...), up for odd j and down for even j
// (linear axes by ulps of the axis's largest magnitude, so that values near zero move as much as
// rounding moves them there). The largest shifts stay below what rounding accumulates over the
// thousands of steps of a run.
study::Study perturbed(study::Study s, int j) {
    const double u = std::ldexp(1.0, (j - 1) / 2 - 52) * (j % 2 == 1 ? 1.0 : -1.0);
    for (auto& axis : s.sweep) {
        if (axis.scale == study::SweepScale::Log) {
            axis.from *= 1.0 + u;
            axis.to *= 1.0 + u;
        } else {
            const double shift = u * std::max(std::fabs(axis.from), std::fabs(axis.to));
            axis.from += shift;
            axis.to += shift;
        }
    }
    s.solver.initial_step *= 1.0 + u;
    return s;
}

// Runs 3, 4, 7, 8, 11, 12, ... round every product and sum on their own.
bool run_without_fma(int j) {
    return (j - 1) / 2 % 2 == 1;
}

// The CPU backend rounding every product and sum on its own: g++ contracts a * b + c to a fused
// multiply-add where the machine has one (its default for C++ with -march=native), as the GPU
// does, though not always in the same places.
cpu::CpuBackendOptions without_fma() {
    cpu::CpuBackendOptions options;
    options.compile.extra_flags = {"-O3", "-ffp-contract=off"};
    return options;
}

bool lyapunov_close(double cpu, double gpu) {
    return std::fabs(cpu - gpu) <= 0.05 + 0.1 * std::fabs(cpu) || (std::isnan(cpu) && std::isnan(gpu));
}

// Whether system i ended the same way on the GPU as in this CPU run (see the top of the file).
bool same_outcome(const study::Result& cpu, const study::Result& gpu, std::size_t i) {
    if (cpu.status[i] != gpu.status[i]) return false;
    switch (cpu.analysis) {
    case study::AnalysisKind::Bifurcation:
        if (cpu.status[i] != study::SystemStatus::Ok) return true;
        if (periodic(cpu.points, i)) return rows_agree(cpu.points, gpu.points, i, 1e-5);
        return cpu.points.rows_filled[i] == gpu.points.rows_filled[i] && !periodic(gpu.points, i);
    case study::AnalysisKind::ParameterMap:
    case study::AnalysisKind::Basins: {
        const auto* a = cpu.scalar("period");
        const auto* b = gpu.scalar("period");
        return !a || !b || close(a->values[i], b->values[i], 0.0);
    }
    case study::AnalysisKind::Lyapunov:
        return lyapunov_close(cpu.scalar("lambda1")->values[i], gpu.scalar("lambda1")->values[i]);
    case study::AnalysisKind::Trajectory:
        return rows_agree(cpu.points, gpu.points, i, 1e-5);
    case study::AnalysisKind::PhasePlane: // never run as an ensemble
        return false;
    }
    return false;
}

std::string outcome_text(const study::Result& r, std::size_t i) {
    std::string text = study::name_of(r.status[i]);
    char buffer[96];
    if (const auto* period = r.scalar("period")) {
        std::snprintf(buffer, sizeof buffer, " period %g", period->values[i]);
        text += buffer;
    } else if (const auto* lambda = r.scalar("lambda1")) {
        std::snprintf(buffer, sizeof buffer, " lambda1 %.5g", lambda->values[i]);
        text += buffer;
    } else if (r.points.width() > 0 && r.points.rows_filled[i] > 0) {
        std::snprintf(buffer, sizeof buffer, " rows %u, first %.9g%s", r.points.rows_filled[i],
                      r.points.value(i, 0, 0), periodic(r.points, i) ? " periodic" : "");
        text += buffer;
    }
    return text;
}

enum class Match { Status, Outcome };

bool matches(Match what, const study::Result& cpu, const study::Result& other, std::size_t i) {
    return what == Match::Status ? cpu.status[i] == other.status[i] : same_outcome(cpu, other, i);
}

constexpr std::size_t no_run = std::size_t(-1);

// Whether any of the runs (but runs[skip]) produced `other`'s outcome of system i.
bool seen(Match what, const std::vector<study::Result>& runs, const study::Result& other, std::size_t i,
          std::size_t skip = no_run) {
    for (std::size_t k = 0; k < runs.size(); ++k)
        if (k != skip && matches(what, runs[k], other, i)) return true;
    return false;
}

// The systems on which `other` ended in an outcome none of the runs (but runs[skip]) produced.
std::size_t unseen(Match what, const std::vector<study::Result>& runs, const study::Result& other,
                   std::size_t skip = no_run) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < other.system_count; ++i)
        count += !seen(what, runs, other, i, skip);
    return count;
}

// How many systems one more rounding of the CPU puts outside the outcomes of the runs: each run
// against all the others, averaged (leave one out; against one run fewer, so slightly high).
double expected_unseen(Match what, const std::vector<study::Result>& runs) {
    if (runs.size() < 2) return 0.0; // one run has no others to check against
    double sum = 0.0;
    for (std::size_t j = 0; j < runs.size(); ++j)
        sum += double(unseen(what, runs, runs[j], j));
    return sum / double(runs.size());
}

// The systems allowed outside the CPU's outcomes: 0.1% of all (at least one), plus what one more
// rounding of the CPU itself is expected to leave there and three standard deviations of that count
// (a sum of rare independent misses, so Poisson: variance = mean), rounded up.
std::size_t allowed_unseen(std::size_t systems, double expected) {
    return std::max<std::size_t>(1, systems / 1000) +
           std::size_t(std::ceil(expected + 3.0 * std::sqrt(expected)));
}

// runs[0] is the nominal CPU run, the others perturbed.
void compare(const std::string& name, const std::vector<study::Result>& runs, const study::Result& gpu) {
    const study::Result& nominal = runs.front();
    REQUIRE(gpu.system_count == nominal.system_count);
    CHECK((nominal.scalar("period") == nullptr) == (gpu.scalar("period") == nullptr));
    const std::size_t n = gpu.system_count;
    std::size_t status_nominal = 0, outcome_nominal = 0, sensitive = 0, printed = 0;
    for (std::size_t i = 0; i < n; ++i) {
        status_nominal += nominal.status[i] == gpu.status[i];
        outcome_nominal += same_outcome(nominal, gpu, i);
        bool alike = true;
        for (const auto& r : runs)
            alike = alike && same_outcome(r, nominal, i) && same_outcome(nominal, r, i);
        sensitive += !alike;
        if (seen(Match::Outcome, runs, gpu, i) || ++printed > 20) continue;
        std::set<std::string> cpu_outcomes;
        for (const auto& r : runs)
            cpu_outcomes.insert(outcome_text(r, i));
        std::printf("  system %zu: gpu %s; cpu", i, outcome_text(gpu, i).c_str());
        for (const auto& text : cpu_outcomes)
            std::printf(" [%s]", text.c_str());
        std::printf("\n");
    }
    const std::size_t status_unseen = unseen(Match::Status, runs, gpu);
    const std::size_t outcome_unseen = unseen(Match::Outcome, runs, gpu);
    const double status_expected = expected_unseen(Match::Status, runs);
    const double outcome_expected = expected_unseen(Match::Outcome, runs);
    std::printf("%-36s %zu systems, %zu rounding-sensitive on the CPU; gpu = nominal cpu: status %zu, "
                "outcome %zu; gpu outside the %zu cpu runs' outcomes: status %zu (a cpu rounding: %.2f), "
                "outcome %zu (a cpu rounding: %.2f)\n",
                name.c_str(), n, sensitive, status_nominal, outcome_nominal, runs.size(), status_unseen,
                status_expected, outcome_unseen, outcome_expected);
    CHECK(status_unseen <= allowed_unseen(n, status_expected));
    if (gpu.analysis == study::AnalysisKind::Lyapunov)
        CHECK(outcome_unseen <= n / 20);
    else if (gpu.analysis == study::AnalysisKind::Trajectory)
        CHECK(outcome_nominal == n);
    else
        CHECK(outcome_unseen <= allowed_unseen(n, outcome_expected));
}

} // namespace

TEST_CASE("the CUDA backend agrees with the CPU backend on every example study", "[cuda][backend][gpu]") {
    auto gpu = cuda::make_cuda_backend();
    const auto why = gpu->availability();
    REQUIRE(why.available);
    auto cpu = bif::cpu::make_cpu_backend();
    auto cpu_without_fma = bif::cpu::make_cpu_backend(without_fma());
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
            const study::Result g = run_on(*gpu, *resolved);
            CHECK(g.info.backend == "cuda");
            CHECK(g.info.precision == codegen::Precision::Double);
            REQUIRE(g.info.complete);
            if (g.analysis == study::AnalysisKind::Lyapunov) REQUIRE(g.scalar("lambda1"));
            std::vector<study::Result> runs{run_on(*cpu, *resolved)};
            // a trajectory is one system compared pointwise with the nominal run
            for (int j = 1; j <= perturbed_runs() && g.analysis != study::AnalysisKind::Trajectory; ++j) {
                const auto moved = study::resolve_study(perturbed(*read.study, j), dir).resolved;
                REQUIRE(moved);
                runs.push_back(run_on(run_without_fma(j) ? *cpu_without_fma : *cpu, *moved));
                REQUIRE(runs.back().system_count == g.system_count);
                if (g.analysis == study::AnalysisKind::Lyapunov) REQUIRE(runs.back().scalar("lambda1"));
            }
            compare(file.filename().string(), runs, g);
        }
    }
}

// An example study (resources/studies/FILE), resolved after `change` shrank or moved it.
template <class Change>
std::shared_ptr<const study::ResolvedStudy> changed_example(const std::string& file, Change change) {
    const std::string dir = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";
    auto read = study::read_study_file(dir + "/" + file);
    REQUIRE(read.study);
    change(*read.study);
    auto resolved = study::resolve_study(*read.study, dir).resolved;
    REQUIRE(resolved);
    return resolved;
}

TEST_CASE("a cancelled GPU run returns promptly with what it finished", "[cuda][backend][gpu]") {
    const auto resolved = changed_example("duffing_bifurcation.json", [](study::Study& s) {
        s.sweep.at(0).count = 2048;
        s.bifurcation.transient_sections = 1000000; // far longer than the test waits
    });
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

TEST_CASE("prepare() makes the backend ready; its quick build agrees with the optimised one",
          "[cuda][backend][gpu]") {
    // strongly damped (k in [0.5, 1]): every system settles on its period-1 orbit, so that the two
    // builds' different roundings (contractions into FMA) cannot decide an outcome
    const auto resolved = changed_example("duffing_bifurcation.json", [](study::Study& s) {
        s.sweep.at(0).count = sanitizer_round() ? 256 : 2048;
        s.sweep.at(0).from = 0.5;
        s.sweep.at(0).to = 1.0;
        s.bifurcation.transient_sections = 128;
    });
    const OwnModuleCache cache("bifscope-test-prepare");
    auto gpu = cuda::make_cuda_backend();
    CHECK_FALSE(gpu->ready(*resolved));
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    gpu->prepare(*resolved, control);
    CHECK(gpu->ready(*resolved));
    const study::Result optimised = run_on(*gpu, *resolved);
    CHECK(optimised.info.code_note.find("module cache hit") != std::string::npos);
    const std::shared_ptr<study::Backend> quick = gpu->quick_stand_in();
    REQUIRE(quick);
    CHECK_FALSE(quick->quick_stand_in());
    const study::Result previewed = run_on(*quick, *resolved);
    std::printf(
        "quick build: compile %.2f s, run %.3f s (optimised: compile %.2f s in prepare, run %.3f s)\n",
        previewed.info.compile_seconds, previewed.info.run_seconds, optimised.info.compile_seconds,
        optimised.info.run_seconds);
    CHECK(previewed.info.code_note.find("speed of compiling") != std::string::npos);
    // the same program compiled two ways: periodic systems agree, chaotic ones are chaotic in both
    std::size_t periodic_systems = 0, agreeing = 0;
    for (std::size_t i = 0; i < optimised.system_count; ++i) {
        if (optimised.status[i] != study::SystemStatus::Ok || !periodic(optimised.points, i)) continue;
        ++periodic_systems;
        agreeing += rows_agree(optimised.points, previewed.points, i, 1e-5) ? 1 : 0;
    }
    std::printf("quick build: %zu of %zu periodic systems agree\n", agreeing, periodic_systems);
    CHECK(periodic_systems == optimised.system_count);
    CHECK(agreeing == periodic_systems);
}

// A study run cold on the first tier (separately compiled functions, the step loop's rare paths out
// of line: BIF_OUTLINE_RARE), then warm on the whole-program module its background compile left in
// the cache: the same instructions in another register allocation, the same results to the last bit.
// Returns the first run's result.
study::Result check_tiers_agree(const study::ResolvedStudy& resolved, const char* name) {
    const OwnModuleCache cache("bifscope-test-tiered");
    const bool links = cuda::JitLinkLibrary::instance().available();
    study::Result first;
    {
        cuda::CudaBackendOptions options;
        options.tiered_compile = true;
        options.finish_background_compiles = true;
        auto gpu = cuda::make_cuda_backend(options);
        first = run_on(*gpu, resolved);
        std::printf("tiered, %s: first run compile %.2f s, run %.3f s: %s\n", name,
                    first.info.compile_seconds, first.info.run_seconds, first.info.code_note.c_str());
        CHECK((first.info.code_note.find("functions compiled apart") != std::string::npos) == links);
    } // the backend waits for its background compile
    auto gpu = cuda::make_cuda_backend();
    const study::Result later = run_on(*gpu, resolved);
    std::printf("tiered, %s: later run compile %.2f s, run %.3f s: %s\n", name, later.info.compile_seconds,
                later.info.run_seconds, later.info.code_note.c_str());
    CHECK(later.info.code_note.find("module cache hit") != std::string::npos);
    CHECK(later.info.code_note.find("functions compiled apart") == std::string::npos);
    REQUIRE(first.system_count == later.system_count);
    REQUIRE(first.points.width() == later.points.width());
    REQUIRE(first.points.rows_filled.size() == later.points.rows_filled.size());
    const bool has_points = !first.points.rows_filled.empty();
    // the same arithmetic, but a few roundings on the rare paths differ where they are calls: the
    // bouncing ball's exponents agreed to 12 digits, and were identical to the last bit with
    // BIFSCOPE_CUDA_OUTLINE_RARE=0 (H100, tests/bench/README.md)
    constexpr double rounding = 1e-9;
    std::size_t same = 0;
    double largest = 0.0;
    for (std::size_t i = 0; i < first.system_count; ++i) {
        bool equal = first.status[i] == later.status[i] &&
                     (!has_points || rows_agree(first.points, later.points, i, rounding));
        for (const auto& column : first.scalars) {
            const study::NumberColumn* other = later.scalar(column.name);
            equal = equal && other && close(column.values[i], other->values[i], rounding);
            if (other && std::isfinite(column.values[i]))
                largest = std::max(largest, std::fabs(column.values[i] - other->values[i]) /
                                                (1.0 + std::fabs(column.values[i])));
        }
        same += equal ? 1 : 0;
    }
    std::printf("tiered, %s: %zu of %zu systems agree; largest relative difference of a scalar %.2g\n", name,
                same, first.system_count, largest);
    CHECK(same == first.system_count);
    return first;
}

TEST_CASE("a cold study runs on separately compiled functions first, then on the whole-program module",
          "[cuda][backend][gpu]") {
    SECTION("impacts with resets and the saltation of the tangent vectors") {
        const auto resolved = changed_example("bouncing_ball_lyapunov.json", [](study::Study& s) {
            s.sweep.at(0).count = sanitizer_round() ? 64 : 256;
            s.lyapunov.averaging_time = 100;
        });
        CHECK_FALSE(check_tiers_agree(*resolved, "bouncing ball exponents").scalars.empty());
    }
    SECTION("impacts with resets between event sections") {
        const auto resolved = changed_example("relief_valve_impacts.json", [](study::Study& s) {
            s.sweep.at(0).count = sanitizer_round() ? 64 : 512;
            s.bifurcation.transient_sections = 64;
        });
        const study::Result first = check_tiers_agree(*resolved, "relief valve diagram");
        // points compared above: most systems reach their 32 section points
        std::size_t full = 0;
        for (std::uint32_t rows : first.points.rows_filled)
            full += rows == 32 ? 1 : 0;
        CHECK(full > first.system_count / 2);
    }
}

TEST_CASE("continuation chains run one per GPU thread and agree with the CPU's chains",
          "[cuda][backend][gpu]") {
    const std::string dir = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";
    auto read = study::read_study_file(dir + "/forced_vanderpol_hysteresis_map.json");
    REQUIRE(read.study);
    // 33 rows: more chains than a warp holds; each 2 x 12 systems long
    read.study->sweep.at(0).count = 12;
    read.study->sweep.at(1).count = sanitizer_round() ? 3 : 33;
    read.study->bifurcation.transient_sections = 20;
    read.study->bifurcation.recorded_sections = 8;
    const auto resolved = study::resolve_study(*read.study, dir).resolved;
    REQUIRE(resolved);
    REQUIRE(resolved->chain_count() >= 3);
    auto gpu = cuda::make_cuda_backend();
    REQUIRE(gpu->supports(*resolved).available);
    const study::Result g = run_on(*gpu, *resolved);
    REQUIRE(g.info.complete);
    bool noted = false;
    for (const auto& note : g.info.notes)
        noted = noted || note.find("continuation chains") != std::string::npos;
    CHECK(noted);
    auto cpu = bif::cpu::make_cpu_backend();
    auto cpu_without_fma = bif::cpu::make_cpu_backend(without_fma());
    std::vector<study::Result> runs{run_on(*cpu, *resolved)};
    for (int j = 1; j <= perturbed_runs(); ++j) {
        const auto moved = study::resolve_study(perturbed(*read.study, j), dir).resolved;
        REQUIRE(moved);
        runs.push_back(run_on(run_without_fma(j) ? *cpu_without_fma : *cpu, *moved));
    }
    CHECK(g.scalar("direction")->values == runs.front().scalar("direction")->values);
    compare("two-axis continuation", runs, g);

    // a single chain stays on the CPU
    auto single = *read.study;
    single.sweep.pop_back();
    const auto one_chain = study::resolve_study(single, dir).resolved;
    REQUIRE(one_chain);
    CHECK(gpu->supports(*one_chain).reason == "a single continuation chain runs on the CPU");
}

TEST_CASE("step accessories on the GPU agree with the CPU's, with events and without",
          "[cuda][backend][gpu]") {
    // the relief valve's impacts are events (its max and min over steps are considered out of line
    // on the GPU); the Duffing oscillator has none (inline)
    const std::string dir = std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";
    const std::string accessories = R"("accessories": [
        {"name": "max y", "expression": "y1", "reduce": "max", "over": "steps"},
        {"name": "min y", "expression": "y1", "reduce": "min", "over": "steps"},
        {"name": "mean y", "expression": "y1", "reduce": "mean", "over": "steps"}]})";
    const int side = sanitizer_round() ? 6 : 24;
    const std::string relief =
        R"({"bifscope_study": 1, "model": {"path": "../models/relief_valve.ode"},
        "parameters": {"kappa": 1.25, "delta": 10, "beta": 20, "r": 0.8},
        "sweep": [{"parameter": "q", "from": 0.5, "to": 7, "count": )" +
        std::to_string(side) + R"(}, {"parameter": "kappa", "from": 1, "to": 1.5, "count": )" +
        std::to_string(side) + R"(}],
        "analysis": {"kind": "map", "section": {"kind": "event", "condition": "y2", "direction": "falling",
                     "max_time_between": 100}, "transient_sections": 64, "recorded_sections": 24,
                     "detect_period": true, )" +
        accessories + R"(,
        "solver": {"method": "rkck45", "rtol": 1e-10, "atol": 1e-10, "initial_step": 1e-3}, "precision": "double"})";
    const std::string duffing =
        R"({"bifscope_study": 1, "model": {"path": "../models/duffing.ode"}, "parameters": {"delta": 1, "omega": 1},
        "sweep": [{"parameter": "k", "from": 0.1, "to": 0.4, "count": )" +
        std::to_string(side) + R"(}, {"parameter": "b", "from": 0.1, "to": 0.5, "count": )" +
        std::to_string(side) + R"(}],
        "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
                     "transient_sections": 64, "recorded_sections": 24, "detect_period": true, )" +
        accessories + R"(,
        "solver": {"method": "dopri5", "rtol": 1e-9, "atol": 1e-9, "initial_step": 1e-2}, "precision": "double"})";
    auto gpu = cuda::make_cuda_backend();
    REQUIRE(gpu->availability().available);
    auto cpu = bif::cpu::make_cpu_backend();
    for (const auto& [name, json] : {std::pair{"relief valve", relief}, std::pair{"duffing", duffing}}) {
        DYNAMIC_SECTION(name) {
            auto read = study::read_study_json(json);
            REQUIRE(read.study);
            const auto resolved = study::resolve_study(*read.study, dir).resolved;
            REQUIRE(resolved);
            const study::Result g = run_on(*gpu, *resolved);
            REQUIRE(g.info.backend == "cuda");
            const study::Result c = run_on(*cpu, *resolved);
            const std::size_t n = g.system_count;
            REQUIRE(c.system_count == n);
            std::size_t periodic_ok = 0, agree = 0, spread = 0;
            for (std::size_t i = 0; i < n; ++i) {
                // a periodic attractor (the same on both) has the same extremes and mean to rounding;
                // a chaotic one's differ after the trajectories part
                const double period = c.scalar("period")->values[i];
                if (c.status[i] != study::SystemStatus::Ok || !(period > 0) ||
                    g.scalar("period")->values[i] != period)
                    continue;
                ++periodic_ok;
                bool all = true;
                for (const char* column : {"max y", "min y", "mean y"}) {
                    const double a = c.scalar(column)->values[i], b = g.scalar(column)->values[i];
                    all = all && std::fabs(a - b) <= 1e-6 * (1 + std::fabs(a));
                }
                agree += all;
                const double lo = c.scalar("min y")->values[i], hi = c.scalar("max y")->values[i],
                             mean = c.scalar("mean y")->values[i];
                spread += lo < mean && mean < hi;
            }
            std::printf(
                "step accessories, %s: %zu systems, %zu periodic on both, %zu of them agree, %zu with "
                "min < mean < max\n",
                name, n, periodic_ok, agree, spread);
            CHECK(periodic_ok >= n / 2);
            CHECK(agree >= periodic_ok - periodic_ok / 50);
            CHECK(spread == periodic_ok);
        }
    }
}
