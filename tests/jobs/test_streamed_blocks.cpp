// Streamed runs with several blocks at once (PassRunSetup::blocks_at_once): blocks reach the sink in
// system order, each system's values are those the sweep formula gives (independent of which block
// ran it and what ran beside it), blocks do overlap, and cancels and failures end the run cleanly.
#include "engine/jobs/pass_runner.h"
#include "engine/study/result_summary.h"
#include "fake_backend.h"

#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

using namespace bif;
using namespace std::chrono_literals;

namespace {

// The fake backend, counting how many of its runs overlap.
class OverlapCounter : public study::Backend {
  public:
    explicit OverlapCounter(std::chrono::microseconds per_system) : inner_("fake", true, per_system) {}
    std::string name() const override { return "overlap"; }
    study::Availability availability() const override { return {true, ""}; }
    study::Result run(const study::ResolvedStudy& s, study::RunControl& control) override {
        const int now = ++active_;
        for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
        }
        struct Leave {
            std::atomic<int>& active;
            ~Leave() { --active; }
        } leave{active_};
        ++runs;
        if (s.grid.whole_point(0) == fail_at_system) throw study::BackendError("the fake device broke");
        return inner_.run(s, control);
    }

    std::atomic<int> most{0}, runs{0};
    std::size_t fail_at_system = ~std::size_t(0); // the block that starts there fails

  private:
    test::FakeBackend inner_;
    std::atomic<int> active_{0};
};

struct Published {
    std::mutex mutex;
    std::vector<std::shared_ptr<const jobs::ResultBlock>> blocks;
    jobs::BlockSink sink() {
        return [this](std::shared_ptr<const jobs::ResultBlock> b) {
            std::lock_guard lock(mutex);
            blocks.push_back(std::move(b));
        };
    }
};

// Every published system in increasing order, each with the fake backend's k^2 + row at
// k = system / (count - 1) (the sweep of fake_study from 0 to 1); returns how many there were.
std::size_t check_blocks(const Published& published, std::size_t count) {
    std::size_t next = 0;
    for (const auto& block : published.blocks) {
        REQUIRE(block->systems.size() == block->result->system_count);
        for (std::size_t i = 0; i < block->systems.size(); ++i) {
            const std::size_t system = block->systems[i];
            REQUIRE(system >= next);
            next = system + 1;
            const double k = double(system) / double(count - 1);
            REQUIRE(block->result->axes[0].values[i] == Approx(k).margin(1e-15));
            REQUIRE(block->result->status[i] == study::SystemStatus::Ok);
            for (std::size_t row = 0; row < 2; ++row)
                REQUIRE(block->result->points.value(i, row, 0) == Approx(k * k + double(row)).margin(1e-14));
        }
    }
    std::size_t systems = 0;
    for (const auto& block : published.blocks)
        systems += block->systems.size();
    return systems;
}

} // namespace

TEST_CASE("streamed blocks two at a time come in system order with every system's values",
          "[jobs][streamed]") {
    const int count = 40;
    const auto s = test::fake_study(count);
    for (int at_once : {1, 2}) {
        OverlapCounter backend(300us);
        Published published;
        const std::atomic<bool> cancel{false};
        study::RunControl control(cancel, {});
        jobs::PassRunSetup setup;
        setup.backend = &backend;
        setup.cancel = &cancel;
        setup.control = &control;
        setup.on_block = published.sink();
        setup.keep_whole = false;
        setup.blocks_at_once = at_once;
        const study::Result r = jobs::run_in_order(*s, 7, setup);
        CHECK(r.info.complete);
        CHECK(r.system_count == std::size_t(count));
        REQUIRE(published.blocks.size() == 6); // 5 x 7 + 5
        CHECK(check_blocks(published, count) == std::size_t(count));
        CHECK(published.blocks.back()->systems.front() == 35);
        // the first block runs alone; the others pair up (each takes ~2 ms, far above thread start)
        CHECK(backend.most.load() == at_once);
    }
}

// A range source may wait for the block before it to come back (a distributed run's coordinator:
// its window, or every block out), so ranges run one at a time whatever the backend would overlap:
// a second range asked for while the first runs would wait for ever. Here the source gives a range
// only once every range before it was published (after 2 s it gives up, and the test fails).
TEST_CASE("streamed ranges run one at a time, uneven, in the order given", "[jobs][streamed]") {
    const int count = 30;
    const auto s = test::fake_study(count);
    OverlapCounter backend(200us);
    Published published;
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    jobs::PassRunSetup setup;
    setup.backend = &backend;
    setup.cancel = &cancel;
    setup.control = &control;
    setup.on_block = published.sink();
    setup.keep_whole = false;
    setup.blocks_at_once = 3;
    const std::vector<jobs::SystemRange> ranges = {{0, 1}, {1, 9}, {10, 4}, {14, 11}, {25, 5}};
    std::size_t next = 0;
    bool waited_in_vain = false;
    const auto published_count = [&] {
        std::lock_guard lock(published.mutex);
        return published.blocks.size();
    };
    const study::Result r = jobs::run_ranges(
        *s,
        [&]() -> std::optional<jobs::SystemRange> {
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
            while (published_count() < next && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(1ms);
            if (published_count() < next) waited_in_vain = true;
            return next < ranges.size() && !waited_in_vain ? std::optional(ranges[next++]) : std::nullopt;
        },
        setup);
    CHECK_FALSE(waited_in_vain);
    CHECK(r.info.complete);
    REQUIRE(published.blocks.size() == ranges.size());
    for (std::size_t b = 0; b < ranges.size(); ++b) {
        CHECK(published.blocks[b]->systems.front() == ranges[b].first);
        CHECK(published.blocks[b]->systems.size() == ranges[b].count);
    }
    CHECK(check_blocks(published, count) == std::size_t(count));
    CHECK(backend.most.load() == 1);
}

TEST_CASE("a cancel during overlapping streamed blocks ends in order with consistent values",
          "[jobs][streamed]") {
    const int count = 60;
    const auto s = test::fake_study(count);
    OverlapCounter backend(1ms);
    Published published;
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    jobs::PassRunSetup setup;
    setup.backend = &backend;
    setup.cancel = &cancel;
    setup.control = &control;
    setup.on_block = published.sink();
    setup.keep_whole = false;
    setup.blocks_at_once = 2;
    std::thread canceller([&] {
        std::this_thread::sleep_for(25ms); // inside the third or fourth 10 ms block
        cancel.store(true);
    });
    const study::Result r = jobs::run_in_order(*s, 10, setup);
    canceller.join();
    CHECK_FALSE(r.info.complete);
    const std::size_t systems = check_blocks(published, count);
    CHECK(systems >= 10);
    CHECK(systems < std::size_t(count));
}

TEST_CASE("a failing block of a streamed run throws after the blocks beside it stopped", "[jobs][streamed]") {
    const auto s = test::fake_study(40);
    OverlapCounter backend(200us);
    backend.fail_at_system = 16; // the third block of 8
    Published published;
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    jobs::PassRunSetup setup;
    setup.backend = &backend;
    setup.cancel = &cancel;
    setup.control = &control;
    setup.on_block = published.sink();
    setup.keep_whole = false;
    setup.blocks_at_once = 2;
    CHECK_THROWS_AS(jobs::run_in_order(*s, 8, setup), study::BackendError);
    // the two blocks before the failing one were published, in order
    REQUIRE(published.blocks.size() == 2);
    CHECK(check_blocks(published, 40) == 16);
}

TEST_CASE("status counts added block by block match a count by hand", "[jobs][streamed][summary]") {
    // every code, in a pattern that no block boundary lines up with
    const int codes = int(study::SystemStatus::EventsAccumulate) + 1;
    std::vector<study::SystemStatus> all(1000);
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<study::SystemStatus>((i * 7 + i / 13) % std::size_t(codes));
    std::size_t ok = 0, not_run = 0, escaped = 0, stopped = 0;
    for (const study::SystemStatus s : all) {
        ok += s == study::SystemStatus::Ok;
        not_run += s == study::SystemStatus::NotRun;
        escaped += s == study::SystemStatus::Escaped;
        stopped += s == study::SystemStatus::StoppedByModel;
    }
    study::ResultSummary summary;
    for (std::size_t first = 0; first < all.size(); first += 333)
        summary.add_statuses(
            {all.begin() + long(first), all.begin() + long(std::min(first + 333, all.size()))});
    CHECK(summary.ok == ok);
    CHECK(summary.not_run == not_run);
    CHECK(summary.escaped == escaped);
    // a failure is every status that is neither ok, not run, stopped by the model nor escaped
    CHECK(summary.failed == all.size() - ok - not_run - escaped - stopped);
    CHECK(summary.failed > 0);
}
