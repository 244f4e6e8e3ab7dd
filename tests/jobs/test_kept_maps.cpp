// Jobs whose map result stays on a device (JobOptions::keep, engine/study/kept_map.h), with a
// stand-in device that keeps a host run's result (host_kept_map.h): the preview of the map's sample
// lattice comes first as a provisional block, then the kept cells, equal to an ordinary run's
// floats; a backend that cannot keep the study runs it the ordinary way and says why. A diagram keeps
// its points the same way.
#include "block_collector.h"
#include "engine/cpu/cpu_backend.h"
#include "engine/jobs/job.h"
#include "engine/study/kept_map.h"
#include "engine/study/kept_points.h"
#include "host_kept_map.h"
#include "progressive_studies.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <mutex>

using namespace bif;
using namespace std::chrono_literals;

namespace {

using test::Blocks;

std::shared_ptr<study::Backend> shared_cpu() {
    static std::shared_ptr<study::Backend> cpu = cpu::make_cpu_backend();
    return cpu;
}

std::shared_ptr<const study::Result> run(std::shared_ptr<study::Backend> backend,
                                         std::shared_ptr<const study::ResolvedStudy> s,
                                         jobs::JobOptions options) {
    jobs::BackendRegistry registry;
    registry.add(std::move(backend));
    auto job = jobs::submit(registry, std::move(s), std::move(options));
    REQUIRE(job->wait_for(120s));
    INFO(job->failure());
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    return job->result();
}

// A progressive job that keeps its result as `keep` asks, its blocks into `blocks`.
jobs::JobOptions progressive_keeping(Blocks& blocks, study::KeepRequest keep) {
    jobs::JobOptions options;
    options.progressive = true;
    options.on_block = blocks.sink();
    options.keep = std::move(keep);
    return options;
}

bool same_float(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

} // namespace

TEST_CASE("a kept map's sample lattice", "[jobs][kept]") {
    CHECK(study::kept_sample_step(10000, 10000) == 20);
    CHECK(study::kept_sample_step(512, 3) == 1);
    CHECK(study::kept_sample_step(513, 1) == 2);
    CHECK(study::kept_sample_step(3, 2048, 512) == 4);
    CHECK(study::kept_sample_systems(5, 3, 2) == std::vector<std::size_t>{0, 2, 4, 10, 12, 14});
    CHECK(study::kept_sample_systems(4, 1, 1) == std::vector<std::size_t>{0, 1, 2, 3});
}

TEST_CASE("a kept map job previews its sample lattice, then keeps every cell", "[jobs][kept]") {
    // 520 values of k: the sample takes every second one
    const auto s = test::duffing_map(520, 3, 8);
    const auto reference = run(shared_cpu(), s, {});
    auto keeping = std::make_shared<test::KeepingBackend>(shared_cpu());
    Blocks blocks;
    const jobs::JobOptions options = progressive_keeping(blocks, study::KeepRequest{0, {"period", "max y1"}});
    const auto kept = run(keeping, s, options);

    CHECK(keeping->kept_runs == 1);
    REQUIRE(kept->kept);
    CHECK(kept->system_count == s->system_count());
    CHECK(kept->status.empty());
    CHECK(kept->scalars.empty());
    CHECK(kept->info.complete);
    REQUIRE(blocks.list.size() == 1);
    const jobs::ResultBlock& preview = *blocks.list.front();
    CHECK(preview.provisional);
    CHECK(preview.stride == 2);
    CHECK(preview.systems == study::kept_sample_systems(520, 3, 2));
    CHECK(test::rows_equal(*preview.result, preview.systems, *reference));

    const study::Result back = study::download_kept(*s, *kept->kept);
    CHECK(back.status == reference->status);
    for (const char* column : {"period", "max y1"}) {
        INFO(column);
        const auto& got = back.scalar(column)->values;
        const auto& want = reference->scalar(column)->values;
        std::size_t differ = 0;
        for (std::size_t i = 0; i < want.size(); ++i)
            differ += !same_float(float(got[i]), float(want[i]));
        CHECK(differ == 0);
    }
    // a column not kept comes back empty
    const auto& lambda = back.scalar("lambda_max")->values;
    CHECK(std::all_of(lambda.begin(), lambda.end(), [](double v) { return std::isnan(v); }));
}

TEST_CASE("a backend that cannot keep a map runs it the ordinary way and says why", "[jobs][kept]") {
    const auto s = test::duffing_map(520, 3, 8);
    const auto reference = run(shared_cpu(), s, {});
    SECTION("the CPU backend keeps nothing") {
        Blocks blocks;
        jobs::JobOptions options;
        options.progressive = true;
        options.on_block = blocks.sink();
        options.keep = study::KeepRequest{0, {"period"}};
        const auto result = run(shared_cpu(), s, options);
        CHECK_FALSE(result->kept);
        CHECK(test::results_equal(*result, *reference));
        const auto& notes = result->info.notes;
        CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
            return n.find("the result is in host memory: the cpu backend keeps no results") !=
                   std::string::npos;
        }));
        // the preview came first, then the ordinary passes
        REQUIRE(blocks.list.size() > 1);
        CHECK(blocks.list.front()->provisional);
        CHECK(blocks.list.front()->stride == 2);
    }
    SECTION("a column the device does not compute") {
        auto keeping = std::make_shared<test::KeepingBackend>(shared_cpu());
        jobs::JobOptions options;
        options.keep = study::KeepRequest{0, {"label"}};
        const auto result = run(keeping, s, options);
        CHECK(keeping->kept_runs == 0);
        CHECK_FALSE(result->kept);
        CHECK(test::results_equal(*result, *reference));
        const auto& notes = result->info.notes;
        CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
            return n.find("does not compute \"label\"") != std::string::npos;
        }));
    }
}

TEST_CASE("a kept map job cancelled during its preview ends with nothing kept", "[jobs][kept]") {
    const auto s = test::duffing_map(600, 40, 400);
    auto keeping = std::make_shared<test::KeepingBackend>(shared_cpu());
    jobs::BackendRegistry registry;
    registry.add(keeping);
    jobs::JobOptions options;
    options.progressive = true;
    options.on_block = [](std::shared_ptr<const jobs::ResultBlock>) {};
    options.keep = study::KeepRequest{0, {"period"}};
    auto job = jobs::submit(registry, s, options);
    job->cancel();
    REQUIRE(job->wait_for(60s));
    CHECK(job->state() == jobs::JobState::Cancelled);
    REQUIRE(job->result());
    CHECK_FALSE(job->result()->kept);
    CHECK(job->result()->status.empty());
    CHECK(keeping->kept_runs == 0);
}

// A one-axis diagram whose points stay on the device: the preview of every step-th value comes first
// with its points on the host, then a result with axes, statuses and no points, whose kept points
// bin and download as an ordinary run's points.
TEST_CASE("a kept diagram job previews every step-th value, then keeps every point", "[jobs][kept]") {
    const auto s = test::duffing_bifurcation(1030); // a preview step of 3
    const auto reference = run(shared_cpu(), s, {});
    auto keeping = std::make_shared<test::KeepingBackend>(shared_cpu());
    Blocks blocks;
    const jobs::JobOptions options = progressive_keeping(blocks, study::KeepRequest{0, {}});
    const auto kept = run(keeping, s, options);

    CHECK(keeping->kept_runs == 1);
    REQUIRE(kept->kept_points);
    CHECK_FALSE(kept->kept);
    CHECK(kept->points.rows_per_system == 0);
    CHECK(kept->points.values.empty());
    CHECK(kept->points.columns == reference->points.columns);
    CHECK(kept->status == reference->status);
    REQUIRE(kept->axes.size() == 1);
    CHECK(kept->axes[0].values == reference->axes[0].values);
    CHECK(kept->kept_points->systems() == s->system_count());
    CHECK(kept->kept_points->rows() == reference->points.rows_per_system);

    // the preview: every third value of k, as provisional host points
    REQUIRE(blocks.list.size() == 1);
    const jobs::ResultBlock& preview = *blocks.list.front();
    CHECK(preview.provisional);
    CHECK(preview.stride == 3);
    REQUIRE(preview.systems == study::kept_sample_systems(1030, 1, 3));
    std::size_t differ = 0;
    for (std::size_t row = 0; row < preview.systems.size(); ++row) {
        const std::size_t system = preview.systems[row];
        differ += preview.result->points.rows_filled[row] != reference->points.rows_filled[system];
        for (std::size_t r = 0; r < preview.result->points.rows_filled[row]; ++r)
            for (std::size_t c = 0; c < reference->points.width(); ++c)
                differ += preview.result->points.value(row, r, c) != reference->points.value(system, r, c);
    }
    CHECK(differ == 0);

    // an export: the kept points back on the host, as the ordinary run has them
    const study::Result exported = study::download_kept_points(*kept);
    CHECK_FALSE(exported.kept_points);
    CHECK(exported.points.rows_per_system == reference->points.rows_per_system);
    CHECK(exported.points.rows_filled == reference->points.rows_filled);
    REQUIRE(exported.points.values.size() == reference->points.values.size());
    differ = 0;
    for (std::size_t k = 0; k < exported.points.values.size(); ++k)
        differ += !(exported.points.values[k] == reference->points.values[k] ||
                    (std::isnan(exported.points.values[k]) && std::isnan(reference->points.values[k])));
    CHECK(differ == 0);
}
