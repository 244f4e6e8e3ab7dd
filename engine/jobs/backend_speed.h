// How fast a backend runs a study, as a formula of the work, fitted once per machine
// (speed_calibration.h) and fed per study by a probe (work_probe.h).
//
// The unit of work is the evaluator-second: the time one system of the study takes on one core
// through the compiler-free evaluator (the probe backend), which needs no compile and so measures
// any study at once. A backend then takes, for n systems of w evaluator-seconds each,
//
//   t = fixed + compile (when its code is not cached) + n * host + max(W * single, n * w * per_system)
//
// with w the systems' mean work and W the heaviest's: a run cannot end before its slowest system
// (a GPU thread many times slower than a core waits seconds for a stiff corner of a sweep).
// `host` is what each system costs whatever its length (its results allocated, copied, assembled).
// `single` is its time for one system alone (per evaluator-second: a native core ~1/20, a GPU
// thread several times more than that), `per_system` its time per system when it is full (a CPU:
// single / threads; a GPU: single / the systems it effectively runs side by side).
#pragma once

#include <cstddef>
#include <string>

namespace bif::jobs {

struct BackendSpeed {
    std::string device;         // what the backend said it ran on ("16 threads", "NVIDIA H100 ...")
    double fixed_seconds = 0;   // a run of one short system: launch, allocation, threads
    double compile_seconds = 0; // compiling the reference model (0: never compiles)
    double single = 0;          // seconds per evaluator-second, one system alone
    double per_system = 0;      // seconds per evaluator-second and system, the backend full
    double host = 0;            // seconds per system whatever its length
    unsigned threads = 0;       // host threads it was measured with (the CPU scales per_system by it)
    std::size_t lanes = 0;      // parallel_systems() of the reference study (a GPU scales by it)

    // Finite, positive where it must be: a calibration file holding anything else is ignored.
    bool plausible() const;
};

// What one backend would take for a study.
struct SpeedInputs {
    std::size_t parallel = 1; // systems (or continuation chains) side by side
    double work = 0;          // evaluator-seconds each (their mean)
    double heaviest = 0;      // the heaviest system's evaluator-seconds (0: `work`)
    bool compiles = false;    // its code is not cached: it compiles first
    double compile_scale = 1; // the study's code size against the reference model's
    unsigned threads = 0;     // host threads the run gets (0: as calibrated)
    std::size_t lanes = 0;    // parallel_systems() for this study (0: as calibrated)
};

double predicted_seconds(const BackendSpeed& speed, const SpeedInputs& in);

} // namespace bif::jobs
