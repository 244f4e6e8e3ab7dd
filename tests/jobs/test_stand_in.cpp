// The stand-in path of progressive jobs with fake backends whose values differ (the stand-in adds an
// offset): provisional blocks first, then the selected backend's, and only its values in the result.
#include "block_collector.h"
#include "engine/jobs/job.h"
#include "fake_backend.h"

#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

using namespace bif;
using namespace std::chrono_literals;

namespace {

using test::Blocks;

std::shared_ptr<jobs::Job> submit_with_stand_in(std::shared_ptr<test::FakeBackend> selected,
                                                std::shared_ptr<test::FakeBackend> stand_in, Blocks& blocks,
                                                int systems) {
    jobs::BackendRegistry registry;
    registry.add(selected);
    jobs::JobOptions options;
    options.progressive = true;
    options.stand_in = stand_in;
    options.on_block = blocks.sink();
    return jobs::submit(registry, test::fake_study(systems), options);
}

} // namespace

TEST_CASE("provisional blocks come first; the result holds only the selected backend's values",
          "[jobs][stand-in]") {
    auto selected = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    selected->compile_time = 300ms;
    auto stand_in = std::make_shared<test::FakeBackend>("evaluator", true, 200us);
    stand_in->offset = 1000.0;
    Blocks blocks;
    auto job = submit_with_stand_in(selected, stand_in, blocks, 200);
    REQUIRE(job->wait_for(10s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    const auto r = job->result();
    for (std::size_t i = 0; i < 200; ++i) {
        const double k = i / 199.0;
        CHECK(r->points.value(i, 1, 0) == Approx(k * k + 1)); // no offset anywhere
    }
    std::lock_guard lock(blocks.mutex);
    REQUIRE(blocks.list.size() >= 5); // some previews, then at least the four passes
    CHECK(blocks.list.front()->provisional);
    bool final_seen = false;
    std::vector<int> final_count(200, 0);
    for (const auto& b : blocks.list) {
        final_seen = final_seen || !b->provisional;
        CHECK(b->provisional != final_seen); // no preview after the first final block
        const double expected_offset = b->provisional ? 1000.0 : 0.0;
        for (std::size_t row = 0; row < b->systems.size(); ++row) {
            const double k = b->systems[row] / 199.0;
            CHECK(b->result->points.value(row, 0, 0) == Approx(k * k + expected_offset));
            if (!b->provisional) ++final_count[b->systems[row]];
        }
    }
    CHECK(std::count(final_count.begin(), final_count.end(), 1) == 200);
    CHECK(selected->compiled);
}

TEST_CASE("a cancel during the preview stops both the stand-in and the compile", "[jobs][stand-in][cancel]") {
    auto selected = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    selected->compile_time = 20s;
    auto stand_in = std::make_shared<test::FakeBackend>("evaluator", true, 5ms);
    Blocks blocks;
    auto job = submit_with_stand_in(selected, stand_in, blocks, 400);
    const auto start = std::chrono::steady_clock::now();
    while (blocks.size() < 1 && std::chrono::steady_clock::now() - start < 10s)
        std::this_thread::sleep_for(1ms);
    REQUIRE(blocks.size() >= 1);
    const auto asked = std::chrono::steady_clock::now();
    job->cancel();
    REQUIRE(job->wait_for(5s));
    CHECK(std::chrono::steady_clock::now() - asked < 100ms);
    CHECK(job->state() == jobs::JobState::Cancelled);
    CHECK_FALSE(selected->compiled);
    // Provisional values never reach the result: nothing ran on the selected backend.
    CHECK(job->result()->count(study::SystemStatus::NotRun) == 400);
}

TEST_CASE("no stand-in when the selected backend is ready", "[jobs][stand-in]") {
    auto selected = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    auto stand_in = std::make_shared<test::FakeBackend>("evaluator", true, 0us);
    Blocks blocks;
    auto job = submit_with_stand_in(selected, stand_in, blocks, 100);
    REQUIRE(job->wait_for(10s));
    CHECK(stand_in->runs == 0);
    std::lock_guard lock(blocks.mutex);
    CHECK(std::none_of(blocks.list.begin(), blocks.list.end(), [](const auto& b) { return b->provisional; }));
}

TEST_CASE("a backend's quick build previews in place of the job's stand-in", "[jobs][stand-in]") {
    // a GPU backend offers its quick-compiling self (CudaBackend::quick_stand_in): its previews come
    // from the GPU, not from the CPU evaluator
    auto selected = std::make_shared<test::FakeBackend>("cuda", true, 0us);
    selected->compile_time = 300ms;
    auto quick = std::make_shared<test::FakeBackend>("cuda", true, 200us);
    quick->offset = 500.0;
    selected->quick = quick;
    auto stand_in = std::make_shared<test::FakeBackend>("evaluator", true, 200us);
    stand_in->offset = 1000.0;
    Blocks blocks;
    auto job = submit_with_stand_in(selected, stand_in, blocks, 200);
    REQUIRE(job->wait_for(10s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    CHECK(stand_in->runs == 0);
    CHECK(quick->runs > 0);
    std::lock_guard lock(blocks.mutex);
    REQUIRE(blocks.list.front()->provisional);
    for (const auto& b : blocks.list)
        for (std::size_t row = 0; row < b->systems.size(); ++row) {
            const double k = b->systems[row] / 199.0;
            CHECK(b->result->points.value(row, 0, 0) == Approx(k * k + (b->provisional ? 500.0 : 0.0)));
        }
}

TEST_CASE("every block of a progressive run is told the run's size", "[jobs][stand-in]") {
    // so that a GPU backend sizes one module for all passes instead of compiling one per block size
    auto selected = std::make_shared<test::FakeBackend>("cuda", true, 0us);
    selected->compile_time = 100ms;
    auto stand_in = std::make_shared<test::FakeBackend>("evaluator", true, 100us);
    Blocks blocks;
    auto job = submit_with_stand_in(selected, stand_in, blocks, 300);
    REQUIRE(job->wait_for(10s));
    REQUIRE(job->state() == jobs::JobState::Succeeded);
    REQUIRE(blocks.size() >= 4);
    CHECK(selected->smallest_run_size == 300);
    CHECK(selected->largest_run_size == 300);
    CHECK(stand_in->smallest_run_size == 300);
}

TEST_CASE("a backend as wide as the grid runs a progressive job in one block", "[jobs][stand-in]") {
    auto gpu = std::make_shared<test::FakeBackend>("cuda", true, 0us);
    auto narrow = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    gpu->width = 1000; // 200 systems cost it what one does: coarse passes would only add launches
    Blocks wide_blocks, narrow_blocks;
    auto wide_job = submit_with_stand_in(gpu, nullptr, wide_blocks, 200);
    auto narrow_job = submit_with_stand_in(narrow, nullptr, narrow_blocks, 200);
    REQUIRE(wide_job->wait_for(10s));
    REQUIRE(narrow_job->wait_for(10s));
    REQUIRE(wide_job->state() == jobs::JobState::Succeeded);
    CHECK(wide_blocks.size() == 1);
    CHECK(gpu->runs == 1);
    CHECK(narrow_blocks.size() > 4); // the CPU's blocks: four passes, the first ones small
    for (std::size_t i = 0; i < 200; ++i)
        CHECK(wide_job->result()->points.value(i, 1, 0) == narrow_job->result()->points.value(i, 1, 0));
}
