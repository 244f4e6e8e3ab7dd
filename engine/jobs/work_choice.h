// Auto's choice between the CPU and the CUDA backend by predicted time (backend_registry.h): the
// machine's calibration (speed_calibration.h) gives each backend's time as a line in the work w of
// one system, t = a + b*w, for this study's system count, compiles and threads, scaled by the
// model's own factor on each backend where one is kept (model_speed.h). Where one line lies below
// the other for every w, and would still with any unmeasured factor within its range (a GPU
// thread up to 8 times slower than on the reference model, down to half; a core 2 times either
// way), that backend runs and nothing is probed. Otherwise the work is probed, the factors of the
// backends whose code is ready are measured (once per model and machine, kept), and the lines are
// drawn again. Where they cross the probe
// (work_probe.h) measures w, with a time budget of 2% of the time at the lines' crossing, and the
// lower prediction runs; it stops early once its estimate lies four times beyond the crossing
// either way, or once it took 3% of the faster prediction for the work it estimates (slices of 2 ms
// at least). A study probed before in this process (setup.memo) is not probed again. The note
// gives the predictions and why.
#pragma once

#include "engine/jobs/speed_calibration.h"
#include "engine/study/backend.h"

#include <optional>
#include <string>

namespace bif::jobs {

struct WorkChoiceSetup {
    study::Backend* cpu = nullptr;
    study::Backend* cuda = nullptr;
    study::Backend* probe = nullptr;
    SpeedCalibration* calibration = nullptr;
    SecondsClock clock;
    study::RunControl* control = nullptr; // may be null
    WorkMemo* memo = nullptr;             // works measured before (may be null: always probe)
    bool race = true;                     // false: where the predictions cannot tell, the lower one runs
};

struct WorkChoice {
    bool gpu = false; // run on setup.cuda, else on setup.cpu
    // Too close to call: both race (backend_race.h), `gpu` the predicted winner. Its winner goes to
    // setup.memo under memo_key with `known`, so that the study's next run goes straight to it.
    bool race = false;
    std::string memo_key;
    KnownWork known;
    std::string note; // for RunInfo::notes: the predictions and why
};
// `parallel`: the systems (or continuation chains) side by side; `work_text` names them ("2000
// systems"). nullopt when the speeds or the work could not be measured (or a cancel came), with the
// reason in `why_not`.
std::optional<WorkChoice> choose_by_work(const study::ResolvedStudy& study, std::size_t parallel,
                                         const std::string& work_text, const WorkChoiceSetup& setup,
                                         std::string& why_not);

} // namespace bif::jobs
