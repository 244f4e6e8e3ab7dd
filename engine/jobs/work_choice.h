// Auto's choice between the CPU and the CUDA backend by predicted time (backend_registry.h): the
// machine's calibration (speed_calibration.h) gives each backend's time as a line in the work w of
// one system, t = a + b*w, for this study's system count, compiles and threads. Where one line
// lies below the other for every w, that backend runs and nothing is probed; otherwise the probe
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
};

struct WorkChoice {
    bool gpu = false; // run on setup.cuda, else on setup.cpu
    std::string note; // for RunInfo::notes: the predictions and why
};
// `parallel`: the systems (or continuation chains) side by side; `work_text` names them ("2000
// systems"). nullopt when the speeds or the work could not be measured (or a cancel came), with the
// reason in `why_not`.
std::optional<WorkChoice> choose_by_work(const study::ResolvedStudy& study, std::size_t parallel,
                                         const std::string& work_text, const WorkChoiceSetup& setup,
                                         std::string& why_not);

} // namespace bif::jobs
