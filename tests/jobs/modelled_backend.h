// Backends for testing auto's choice by work (never shipped): a run takes no real time but
// advances a virtual clock by what a speed model says it takes, so that the calibration and the
// probe measure speeds the test controls exactly, however loaded the machine.
//
// One system of a bifurcation study is `section_work` evaluator-seconds per section (transient and
// recorded alike); a run of n systems of w evaluator-seconds each takes
//   fixed + compile (first run or prepare only) + n * host + w * max(single, n * per_system).
#pragma once

#include "engine/jobs/backend_speed.h"
#include "engine/jobs/work_probe.h"
#include "engine/study/backend.h"

#include <functional>
#include <map>
#include <memory>
#include <set>

namespace bif::test {

struct VirtualClock {
    double now = 0;
    jobs::SecondsClock reader() {
        return [this] { return now; };
    }
};

inline constexpr double section_work = 1e-3;

// Evaluator-seconds of one system of `study` (a bifurcation study), before its weight.
double system_work(const study::ResolvedStudy& study);

// Each system's work times weight(k), k its first swept value (empty: 1): a run of systems of
// unequal work lasts max(heaviest * single, total * per_system) past its fixed costs.
using WorkWeight = std::function<double(double)>;

class ModelledBackend : public study::Backend {
  public:
    ModelledBackend(std::string name, VirtualClock& clock, jobs::BackendSpeed speed, std::size_t lanes = 0)
        : name_(std::move(name)), clock_(clock), speed_(std::move(speed)), lanes_(lanes) {}

    std::string name() const override { return name_; }
    study::Availability availability() const override {
        ++asked;
        return available ? study::Availability{true, ""}
                         : study::Availability{false, "no device in this test"};
    }
    study::Availability supports(const study::ResolvedStudy&) const override {
        return supported ? study::Availability{true, ""} : study::Availability{false, "not this study"};
    }
    // Compiled per model text: the calibration's reference model is not the study's.
    bool ready(const study::ResolvedStudy& study) const override {
        return speed_.compile_seconds == 0 || compiled.count(study.study.model.text) > 0;
    }
    void prepare(const study::ResolvedStudy&, study::RunControl&) override;
    std::size_t parallel_systems(const study::ResolvedStudy&) const override { return lanes_; }
    study::Result run(const study::ResolvedStudy& study, study::RunControl& control) override;

    // The time run() takes for `systems` systems of `work` evaluator-seconds, compiled (the
    // heaviest system's work apart where given).
    double seconds(std::size_t systems, double work, double heaviest = 0, double factor = 1) const;

    bool available = true;
    bool supported = true; // false: supports() says no and run() throws
    WorkWeight weight;
    // A model (by its text) this many times as slow per unit of work as speed.single and
    // per_system say (model_speed.h's factor); others, the calibration's reference among them, 1.
    std::map<std::string, double> model_factors;
    // run() waits for its cancel instead, touching no clock: a backend far slower than its rival in
    // a race (backend_race.h)
    bool blocks = false;
    std::set<std::string> compiled;
    mutable int asked = 0;
    int runs = 0;

  private:
    std::string name_;
    VirtualClock& clock_;
    jobs::BackendSpeed speed_;
    std::size_t lanes_;
};

// The probe: the evaluator itself, one system after another (single = per_system * n = 1).
std::shared_ptr<ModelledBackend> modelled_probe(VirtualClock& clock);

} // namespace bif::test
