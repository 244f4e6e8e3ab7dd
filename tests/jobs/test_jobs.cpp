// The job machinery with a fake backend: results, cancel latency, progress order, immutability of
// results, backend selection with fall-back notes, and failures.
#include "engine/jobs/job.h"
#include "fake_backend.h"

#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

using namespace bif;
using namespace std::chrono_literals;

namespace {

jobs::BackendRegistry registry_with(std::shared_ptr<test::FakeBackend> cpu,
                                    std::shared_ptr<test::FakeBackend> cuda = nullptr) {
    jobs::BackendRegistry registry;
    if (cpu) registry.add(cpu);
    if (cuda) registry.add(cuda);
    return registry;
}

} // namespace

TEST_CASE("a job runs to the end and hands out its result", "[jobs]") {
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    auto job = jobs::submit(registry_with(cpu), test::fake_study(50));
    REQUIRE(job->wait_for(10s));
    CHECK(job->state() == jobs::JobState::Succeeded);
    const auto result = job->result();
    REQUIRE(result);
    CHECK(result->info.complete);
    CHECK(result->info.backend == "cpu");
    CHECK(result->count(study::SystemStatus::Ok) == 50);
    // The fake's recorded value is k^2 + row, k = i/49.
    CHECK(result->points.value(49, 1, 0) == Approx(2.0));
    CHECK(result->points.value(7, 0, 0) == Approx((7.0 / 49) * (7.0 / 49)));
    CHECK(job->progress().fraction == 1.0);
}

TEST_CASE("cancel is honoured within 100 ms and leaves a partial result", "[jobs][cancel]") {
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 20ms);
    auto job = jobs::submit(registry_with(cpu), test::fake_study(1000)); // 20 s if never cancelled
    std::this_thread::sleep_for(150ms);
    CHECK_FALSE(job->finished());
    const auto asked = std::chrono::steady_clock::now();
    job->cancel();
    REQUIRE(job->wait_for(5s));
    const auto latency = std::chrono::steady_clock::now() - asked;
    // The behaviour under test is that the cancel is honoured; the bound is generous for loaded CI machines.
    CHECK(latency < 100ms);
    CHECK(job->state() == jobs::JobState::Cancelled);
    const auto result = job->result();
    REQUIRE(result);
    CHECK_FALSE(result->info.complete);
    const std::size_t done = result->count(study::SystemStatus::Ok);
    CHECK(done > 0);
    CHECK(done < 1000);
    CHECK(result->count(study::SystemStatus::NotRun) == 1000 - done);
}

TEST_CASE("progress reaches the sink in order, never backwards, and ends at 1", "[jobs][progress]") {
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 300us);
    std::mutex m;
    std::vector<study::Progress> seen;
    jobs::JobOptions options;
    options.progress_interval = 5ms;
    options.on_progress = [&](const study::Progress& p) {
        std::lock_guard lock(m);
        seen.push_back(p);
    };
    auto job = jobs::submit(registry_with(cpu), test::fake_study(300), options);
    REQUIRE(job->wait_for(20s));
    std::lock_guard lock(m);
    REQUIRE(seen.size() >= 3);
    // Throttled: far fewer reports than systems.
    CHECK(seen.size() < 300);
    for (std::size_t i = 1; i < seen.size(); ++i) {
        CHECK(seen[i].fraction >= seen[i - 1].fraction);
        CHECK(seen[i].systems_done >= seen[i - 1].systems_done);
    }
    CHECK(seen.back().fraction == 1.0);
    CHECK(seen.back().systems_done == 300);
    CHECK(seen.back().systems_total == 300);
}

TEST_CASE("a result snapshot is immutable and outlives its job", "[jobs]") {
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    std::shared_ptr<const study::Result> first;
    {
        auto job = jobs::submit(registry_with(cpu), test::fake_study(10));
        REQUIRE(job->wait_for(10s));
        first = job->result();
        CHECK(job->result() == first); // the same snapshot every time
    }
    static_assert(std::is_const_v<std::remove_reference_t<decltype(*first)>>);
    const std::vector<double> before = first->points.values;
    auto second = jobs::submit(registry_with(cpu), test::fake_study(10));
    REQUIRE(second->wait_for(10s));
    CHECK(second->result() != first);
    CHECK(first->points.values == before);
}

TEST_CASE("backend selection under auto falls back to the CPU with a note", "[jobs][select]") {
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
    auto cuda = std::make_shared<test::FakeBackend>("cuda", false, 0us);
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Auto;
    // Big enough that auto considers the GPU at all.
    const int systems = static_cast<int>(jobs::default_min_gpu_systems);
    auto job = jobs::submit(registry_with(cpu, cuda), test::fake_study(systems), options);
    REQUIRE(job->wait_for(10s));
    REQUIRE(job->result());
    CHECK(job->result()->info.backend == "cpu");
    REQUIRE(job->result()->info.notes.size() == 1);
    CHECK(job->result()->info.notes[0] == "cuda: no device in this test; running on the CPU");
    CHECK(cuda->runs == 0);

    SECTION("an available GPU backend wins under auto") {
        auto gpu = std::make_shared<test::FakeBackend>("cuda", true, 0us);
        options.backend = study::BackendChoice::Auto;
        auto auto_job = jobs::submit(registry_with(cpu, gpu), test::fake_study(systems), options);
        REQUIRE(auto_job->wait_for(10s));
        CHECK(auto_job->result()->info.backend == "cuda");
        REQUIRE(auto_job->result()->info.notes.size() == 1);
        CHECK(auto_job->result()->info.notes[0].rfind("auto: ", 0) == 0);
    }
    SECTION("cpu is never replaced") {
        auto gpu = std::make_shared<test::FakeBackend>("cuda", true, 0us);
        options.backend = study::BackendChoice::Cpu;
        auto cpu_job = jobs::submit(registry_with(cpu, gpu), test::fake_study(4), options);
        REQUIRE(cpu_job->wait_for(10s));
        CHECK(cpu_job->result()->info.backend == "cpu");
        CHECK(gpu->runs == 0);
    }
}

TEST_CASE("failures: no backend, a throwing backend", "[jobs][failure]") {
    SECTION("no backend at all") {
        auto job = jobs::submit(jobs::BackendRegistry{}, test::fake_study(4));
        REQUIRE(job->wait_for(10s));
        CHECK(job->state() == jobs::JobState::Failed);
        CHECK(job->failure() == "this build has no CPU backend");
        CHECK_FALSE(job->result());
    }
    SECTION("a toolchain error") {
        auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 0us);
        cpu->throw_on_run = true;
        std::atomic<int> finished_calls{0};
        jobs::JobOptions options;
        options.on_finished = [&](jobs::JobState s) {
            if (s == jobs::JobState::Failed) ++finished_calls;
        };
        auto job = jobs::submit(registry_with(cpu), test::fake_study(4), options);
        REQUIRE(job->wait_for(10s));
        CHECK(job->failure() == "cpu: the fake toolchain broke");
        CHECK(finished_calls == 1);
    }
}

TEST_CASE("dropping a running job cancels it", "[jobs][cancel]") {
    auto cpu = std::make_shared<test::FakeBackend>("cpu", true, 20ms);
    const auto start = std::chrono::steady_clock::now();
    {
        auto job = jobs::submit(registry_with(cpu), test::fake_study(1000));
        std::this_thread::sleep_for(30ms);
    }
    CHECK(std::chrono::steady_clock::now() - start < 2s);
}
