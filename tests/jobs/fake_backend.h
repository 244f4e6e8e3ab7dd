// A backend for testing the job machinery only (never shipped): it "integrates" each system by
// sleeping, records k^2 + row (+ offset) as its points, reports progress per system and checks the
// cancel flag every millisecond. It can pretend to compile before its first run.
#pragma once

#include "engine/study/backend.h"

#include <atomic>
#include <chrono>
#include <memory>

namespace bif::test {

class FakeBackend : public study::Backend {
  public:
    FakeBackend(std::string name, bool available, std::chrono::microseconds per_system)
        : name_(std::move(name)), available_(available), per_system_(per_system) {}

    std::string name() const override { return name_; }
    study::Availability availability() const override {
        return available_ ? study::Availability{true, ""}
                          : study::Availability{false, "no device in this test"};
    }
    study::Result run(const study::ResolvedStudy& study, study::RunControl& control) override;
    // With a compile time, the backend is not ready until prepare() or a first run() spent it.
    bool ready(const study::ResolvedStudy&) const override { return compile_time.count() == 0 || compiled; }
    void prepare(const study::ResolvedStudy&, study::RunControl& control) override;
    std::shared_ptr<study::Backend> quick_stand_in() override { return quick; }
    std::size_t parallel_systems(const study::ResolvedStudy&) const override { return width; }

    bool throw_on_run = false;
    std::atomic<int> runs{0};
    std::chrono::milliseconds compile_time{0};
    std::atomic<bool> compiled{false};
    double offset = 0.0; // added to every value: tells a stand-in's values from the real ones
    std::shared_ptr<study::Backend> quick; // what quick_stand_in() offers
    std::size_t width = 0;                 // what parallel_systems() says: 0 as a CPU, or a GPU's width
    // The smallest and largest run size a block of this backend was told (ResolvedStudy::run_system_count,
    // or its own system count for a whole run)
    std::atomic<std::size_t> smallest_run_size{~std::size_t(0)}, largest_run_size{0};

  private:
    std::string name_;
    bool available_;
    std::chrono::microseconds per_system_;
};

// A bifurcation study over k with `count` systems on an inline Duffing model.
std::shared_ptr<const study::ResolvedStudy> fake_study(int count);

} // namespace bif::test
