// Chunked GPU runs: a study run in many small batches on two lanes per GPU (copies of one lane
// overlapping the other's kernels), on every visible GPU, gives bit for bit what the same study gives
// in one batch on one GPU: statuses, rows filled, points and scalars. The slices of a launch are
// whole calls of ensemble::slice_steps, so batch sizes, launch budgets and lane timing must not
// change a single bit. The one-batch run is itself checked against the CPU backend on a study whose
// systems all settle on stable equilibria (Lorenz below the homoclinic explosion at rho = 13.93, RK4
// with a fixed step), where the two backends differ only by rounding.
#include "engine/cpu/cpu_backend.h"
#include "engine/study/resolved_study.h"
#include "engine/study/study_json.h"
#include "runner_harness.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace bif;
using cuda::testing::RunnerHarness;
using cuda::testing::RunnerRun;

namespace {

constexpr std::size_t small_batch = 97; // divides none of the study sizes: the last batch is short

std::string studies_dir() {
    return std::string(BIFSCOPE_SOURCE_DIR) + "/resources/studies";
}

std::shared_ptr<const study::ResolvedStudy> resolved(const study::Study& s) {
    auto r = study::resolve_study(s, studies_dir());
    REQUIRE(r.resolved);
    return r.resolved;
}

// BIFSCOPE_GPU_TEST_SYSTEMS (the compute-sanitizer rounds, a hundredfold slower) shrinks the runs
// to a few batches of the 97 systems the chunked runs take.
bool sanitizer_round() {
    return std::getenv("BIFSCOPE_GPU_TEST_SYSTEMS") != nullptr;
}

// 4096 systems of an example study, with shorter transients.
study::Study example(const std::string& file) {
    auto read = study::read_study_file(studies_dir() + "/" + file);
    REQUIRE(read.study);
    study::Study s = *read.study;
    const int per_axis =
        s.sweep.size() > 1 ? (sanitizer_round() ? 16 : 64) : (sanitizer_round() ? 256 : 4096);
    for (auto& axis : s.sweep)
        axis.count = per_axis;
    s.bifurcation.transient_sections = std::min(s.bifurcation.transient_sections, 64);
    s.bifurcation.recorded_sections = std::min(s.bifurcation.recorded_sections, 32);
    s.map.transient_sections = std::min(s.map.transient_sections, 64);
    s.map.recorded_sections = std::min(s.map.recorded_sections, 32);
    return s;
}

study::Study lorenz_equilibria(const std::string& precision) {
    auto read = study::read_study_json(R"({"bifscope_study": 1, "model": {"path": "../models/lorenz.ode"},
      "initial": {"x": 1, "y": 0, "z": 0},
      "sweep": [{"parameter": "rho", "from": 0.5, "to": 13, "count": )" +
                                       std::string(sanitizer_round() ? "259" : "4099") + R"(}],
      "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "0.5"},
                   "transient_sections": 4, "recorded_sections": 32, "record": ["x", "y", "z"]},
      "solver": {"method": "rk4", "initial_step": 0.001},
      "precision": ")" + precision + "\"}");
    REQUIRE(read.study);
    return *read.study;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

void check_identical(const study::Result& one, const study::Result& many) {
    REQUIRE(one.system_count == many.system_count);
    CHECK(one.status == many.status);
    CHECK(one.points.rows_filled == many.points.rows_filled);
    CHECK(same_bits(one.points.values, many.points.values));
    REQUIRE(one.scalars.size() == many.scalars.size());
    for (std::size_t c = 0; c < one.scalars.size(); ++c) {
        INFO("scalar " << one.scalars[c].name);
        CHECK(same_bits(one.scalars[c].values, many.scalars[c].values));
    }
}

// Handed over in system order, consecutive, covering the study, none larger than `largest`.
void check_batches(const RunnerRun& run, std::size_t systems, std::size_t largest) {
    std::size_t next = 0;
    for (const auto& [first, count] : run.batches) {
        CHECK(first == next);
        CHECK(count >= 1);
        CHECK(count <= largest);
        next = first + count;
    }
    CHECK(next == systems);
}

// One batch on one GPU; then batches of `small_batch` systems on one lane and on two lanes per GPU,
// on every GPU. Returns the one-batch run.
RunnerRun one_and_many(const std::shared_ptr<const study::ResolvedStudy>& study,
                       codegen::Precision precision) {
    const RunnerHarness harness(study, precision);
    const std::size_t n = study->system_count();
    cuda::RunnerOptions whole;
    whole.lanes = 1;
    RunnerRun one = harness.run(whole, 1);
    REQUIRE(one.complete);
    CHECK(one.batches.size() == 1);
    CHECK(one.pinned);
    check_batches(one, n, n);
    for (const int lanes : {1, 2}) {
        cuda::RunnerOptions chunked;
        chunked.lanes = lanes;
        chunked.max_batch = small_batch;
        const RunnerRun many = harness.run(chunked);
        std::printf("%zu systems on %zu GPU(s), %d lane(s) each: %zu batches, %d lanes used, %lld launches, "
                    "%.3f s (one batch: %.3f s)\n",
                    n, harness.device_count(), lanes, many.batches.size(), many.lanes_used, many.launches,
                    many.seconds, one.seconds);
        REQUIRE(many.complete);
        CHECK(many.pinned);
        CHECK(many.batches.size() == (n + small_batch - 1) / small_batch);
        check_batches(many, n, small_batch);
        // every lane takes a batch as soon as its device is set up; 40 batches leave none idle
        CHECK(many.lanes_used >= lanes);
        CHECK(many.lanes_used <= lanes * int(harness.device_count()));
        check_identical(one.result, many.result);
    }
    return one;
}

study::Result on_cpu(const study::ResolvedStudy& study) {
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    return cpu::make_cpu_backend()->run(study, control);
}

// Every status equal, every value within `tolerance` (1 + |cpu value|).
void check_against_cpu(const study::Result& gpu, const study::Result& cpu, double tolerance) {
    REQUIRE(gpu.system_count == cpu.system_count);
    CHECK(gpu.status == cpu.status);
    CHECK(gpu.count(study::SystemStatus::Ok) == gpu.system_count);
    CHECK(gpu.points.rows_filled == cpu.points.rows_filled);
    REQUIRE(gpu.points.values.size() == cpu.points.values.size());
    double worst = 0.0;
    std::size_t not_finite = 0;
    for (std::size_t i = 0; i < cpu.points.values.size(); ++i) {
        const double c = cpu.points.values[i], g = gpu.points.values[i];
        not_finite += !std::isfinite(c) || !std::isfinite(g);
        worst = std::max(worst, std::fabs(g - c) / (1.0 + std::fabs(c)));
    }
    std::printf("largest difference from the CPU: %.2e (allowed %.0e)\n", worst, tolerance);
    CHECK(not_finite == 0);
    CHECK(worst <= tolerance);
}

} // namespace

TEST_CASE("Lorenz equilibria: chunked on two lanes as in one batch, and as on the CPU",
          "[cuda][chunks][gpu]") {
    SECTION("double") {
        const auto study = resolved(lorenz_equilibria("double"));
        const RunnerRun one = one_and_many(study, codegen::Precision::Double);
        // RK4 at a fixed step: the same steps on both; FMA contraction and libm differ in the last bits
        check_against_cpu(one.result, on_cpu(*study), 1e-9);
    }
    SECTION("float") {
        const auto study = resolved(lorenz_equilibria("float"));
        const RunnerRun one = one_and_many(study, codegen::Precision::Float);
        check_against_cpu(one.result, on_cpu(*study), 1e-3);
    }
}

TEST_CASE("example studies: chunked on two lanes as in one batch", "[cuda][chunks][gpu]") {
    for (const char* file : {"duffing_bifurcation.json", "duffing_period_map.json"}) {
        DYNAMIC_SECTION(file) {
            study::Study s = example(file);
            s.precision = study::PrecisionChoice::Double;
            one_and_many(resolved(s), codegen::Precision::Double);
        }
    }
}
