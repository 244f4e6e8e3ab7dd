// How fast a backend runs one model against the calibration's reference model. The calibration
// (speed_calibration.h) measures each backend on the Ueda oscillator; a backend's time per
// evaluator-second is not the same for every model: a GPU thread pays far more than a core for
// double-precision pow and exp and for event handling (Keller-Miksis took a GPU thread 8 times
// the reference's time per unit of work, 0.85 s on 16 cores against 6.9 s on an H100 at 100
// systems), while native code gains more over the evaluator on plain arithmetic. The factor is
// that ratio for one model, method and precision: the backend's seconds per evaluator-second,
// single system, over the reference's. It is measured once per machine, where the backend's code is
// ready (no compile), and kept with the calibration.
#pragma once

#include "engine/jobs/backend_speed.h"
#include "engine/jobs/work_probe.h"
#include "engine/study/backend.h"

#include <atomic>
#include <string>

namespace bif::jobs {

// What a model's factor depends on (its generated code, method, precision and analysis), hashed;
// `source`: study_source(study) (work_probe.h).
std::string model_speed_key(const study::ResolvedStudy& study, const std::string& source);

// `speed` for a model `factor` times as slow per unit of work (fixed and host costs unchanged).
BackendSpeed scaled_speed(BackendSpeed speed, double factor);

struct FactorMeasure {
    double factor = 0;  // the model's time per unit of work over the reference's (0: not measured)
    double seconds = 0; // what measuring took
    std::string failure;
};

// Runs the probe's samples of `study` side by side on `backend` (ready: no compile) for two
// slices, the longer one predicted by `speed` to take about `target_seconds`, and compares the
// slope with what `speed` predicts for the heaviest sample (`heaviest`: evaluator-seconds of the
// whole study's heaviest system). The shorter slice goes first: it also pays what a first run in a
// process pays (a GPU context, a module load), which the slope leaves out.
FactorMeasure measure_model_factor(const study::ResolvedStudy& study, study::Backend& backend,
                                   const BackendSpeed& speed, double heaviest, double target_seconds,
                                   const std::atomic<bool>& cancel, const SecondsClock& clock,
                                   std::size_t samples = ProbeOptions{}.samples);

} // namespace bif::jobs
