// Auto's race (engine/jobs/backend_race.h): two backends run the same study, the first complete
// result is kept and the other stopped. The backends here finish at once or wait for their cancel,
// so that who wins never depends on the machine's load.
#include "engine/jobs/backend_race.h"
#include "fake_backend.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

using namespace bif;

namespace {

// Finishes at once, waits for its cancel, or throws; counts its runs and what it was given.
class RaceEntrant : public study::Backend {
  public:
    enum class Way { Finishes, Waits, Throws };
    RaceEntrant(std::string name, Way way, std::size_t lanes = 0)
        : name_(std::move(name)), way_(way), lanes_(lanes) {}
    std::string name() const override { return name_; }
    study::Availability availability() const override { return {true, ""}; }
    std::size_t parallel_systems(const study::ResolvedStudy&) const override { return lanes_; }
    study::Result run(const study::ResolvedStudy& study, study::RunControl& control) override {
        ++runs;
        threads = control.threads();
        if (way_ == Way::Throws) throw study::BackendError(name_ + " broke");
        study::Result r = study::allocate_result(study);
        r.info.backend = name_;
        if (way_ == Way::Waits) {
            while (!control.cancelled())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            stopped = true;
            return r; // incomplete
        }
        control.report_progress(study.system_count(), study.system_count(), "integrating");
        r.info.complete = true;
        return r;
    }
    std::atomic<int> runs{0};
    std::atomic<unsigned> threads{0};
    std::atomic<bool> stopped{false};

  private:
    std::string name_;
    Way way_;
    std::size_t lanes_;
};

} // namespace

TEST_CASE("the first backend to finish wins the race, the other is stopped", "[jobs][race]") {
    const auto study = test::fake_study(16);
    auto cpu = std::make_shared<RaceEntrant>("cpu", RaceEntrant::Way::Finishes);
    auto gpu = std::make_shared<RaceEntrant>("cuda", RaceEntrant::Way::Waits, 4096);
    std::string heard;
    jobs::BackendRace race(gpu, cpu, [&](const std::string& winner) { heard = winner; });
    CHECK(race.name() == "cuda+cpu");
    CHECK(race.parallel_systems(*study) == 4096);
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {}, 8);
    const study::Result r = race.run(*study, control);
    CHECK(r.info.complete);
    CHECK(r.info.backend == "cpu");
    REQUIRE(!r.info.notes.empty());
    CHECK(r.info.notes[0].rfind("auto: cpu and cuda raced; cpu finished first (", 0) == 0);
    CHECK(r.info.notes[0].find("), cuda was stopped") != std::string::npos);
    CHECK(gpu->stopped);
    CHECK(heard == "cpu");
    CHECK(race.winner() == cpu);
    CHECK(race.name() == "cpu");
    // the CPU side leaves a thread to the GPU side's host thread; the GPU side gets the run's
    CHECK(cpu->threads == 7);
    CHECK(gpu->threads == 8);

    SECTION("a run in blocks races its first block only: the rest go to the winner") {
        (void)race.run(*study, control);
        (void)race.run(*study, control);
        CHECK(cpu->runs == 3);
        CHECK(gpu->runs == 1);
    }
}

TEST_CASE("a backend that fails loses the race; both failing fail the run", "[jobs][race]") {
    const auto study = test::fake_study(4);
    const std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    SECTION("the predicted one fails: the rival's result, and why in the note") {
        jobs::BackendRace race(std::make_shared<RaceEntrant>("cuda", RaceEntrant::Way::Throws, 64),
                               std::make_shared<RaceEntrant>("cpu", RaceEntrant::Way::Finishes));
        const study::Result r = race.run(*study, control);
        CHECK(r.info.backend == "cpu");
        REQUIRE(!r.info.notes.empty());
        CHECK(r.info.notes[0].find("cuda failed: cuda broke") != std::string::npos);
    }
    SECTION("both fail: the predicted one's error") {
        jobs::BackendRace race(std::make_shared<RaceEntrant>("cuda", RaceEntrant::Way::Throws, 64),
                               std::make_shared<RaceEntrant>("cpu", RaceEntrant::Way::Throws));
        CHECK_THROWS_WITH(race.run(*study, control), "cuda broke");
        CHECK(race.winner() == nullptr);
    }
}

TEST_CASE("a cancel stops both sides of a race", "[jobs][race]") {
    const auto study = test::fake_study(4);
    auto a = std::make_shared<RaceEntrant>("cuda", RaceEntrant::Way::Waits, 64);
    auto b = std::make_shared<RaceEntrant>("cpu", RaceEntrant::Way::Waits);
    jobs::BackendRace race(a, b);
    std::atomic<bool> cancel{false};
    study::RunControl control(cancel, {});
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        cancel = true;
    });
    const study::Result r = race.run(*study, control);
    canceller.join();
    CHECK(!r.info.complete);
    CHECK(a->stopped);
    CHECK(b->stopped);
    CHECK(race.winner() == nullptr);
}
