// RunControl from several threads at once: the sink sees progress that never goes backwards, the
// throttle lets far fewer reports through than are made, and the final report always arrives.
#include "engine/study/backend.h"

#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

using namespace bif::study;
using namespace std::chrono_literals;

TEST_CASE("concurrent progress reports stay monotone and end complete", "[jobs][progress]") {
    std::atomic<bool> cancel{false};
    std::mutex m;
    std::vector<std::size_t> seen;
    RunControl control(
        cancel,
        [&](const Progress& p) {
            std::lock_guard lock(m);
            seen.push_back(p.systems_done);
        },
        4, 1 << 20, 1ms);
    constexpr std::size_t total = 40000;
    std::atomic<std::size_t> done{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 10000; ++i)
                control.report_progress(++done, total, "integrating");
        });
    for (auto& t : threads)
        t.join();
    REQUIRE(!seen.empty());
    for (std::size_t i = 1; i < seen.size(); ++i)
        CHECK(seen[i] >= seen[i - 1]);
    CHECK(seen.back() == total);
    CHECK(seen.size() < total / 10);
    CHECK(control.latest_progress().fraction == 1.0);
}

TEST_CASE("chunks sized to the memory budget", "[jobs]") {
    std::atomic<bool> cancel{false};
    RunControl control(cancel, {}, 2, 1000);
    CHECK(control.systems_per_chunk(64) == 15);
    CHECK(control.systems_per_chunk(5000) == 1);
    CHECK(control.threads() == 2);
    RunControl defaults(cancel, {});
    CHECK(defaults.threads() >= 1);
    CHECK(defaults.memory_budget_bytes() > 0);
}

TEST_CASE("the cancel flag is seen through the control", "[jobs][cancel]") {
    std::atomic<bool> cancel{false};
    RunControl control(cancel, {});
    CHECK_FALSE(control.cancelled());
    cancel = true;
    CHECK(control.cancelled());
}
