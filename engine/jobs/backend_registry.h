// The backends a program offers, and the choice among them for one study:
//   cpu   the CPU backend;
//   cuda  the CUDA backend, or a failure with its one-line reason ("cuda: no NVIDIA driver found")
//         when it is missing, unavailable or does not support the study: an explicit request is
//         never quietly run elsewhere;
//   auto  by the work at hand, where the CUDA backend can run the study at all (otherwise the CPU,
//         with the reason). With a work estimate (set_work_estimate; installed_backends sets one):
//         no more systems than CPU threads run on the CPU (a GPU thread is slower than a core);
//         otherwise a probe measures one system's work (work_probe.h) and the machine's
//         calibration (speed_calibration.h, measured on first use and kept), scaled by the
//         model's own factors (model_speed.h), predicts each backend's time, compile included
//         where its code is not cached; the faster one runs (work_choice.h; no probe where one
//         prediction is lower at any length, nor for a study probed before in this process), or,
//         where the predictions cannot tell them apart, both race (backend_race.h; set_race).
//         Without an estimate, or when measuring fails, fewer systems than min_gpu_systems() run
//         on the CPU. The reason is a one-line note ("auto: 2000 systems of 0.21 s of evaluator
//         work each: cuda ~0.47 s, cpu ~1.3 s on 16 threads; running on cuda (measured in 9 ms)",
//         "cuda: no NVIDIA driver found; running on the CPU") that the job copies into the result's
//         RunInfo::notes.
#pragma once

#include "engine/jobs/speed_calibration.h"
#include "engine/study/backend.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bif::jobs {

// Without a work estimate: a GPU runs one system per thread, each thread several times slower than a CPU
// core, and pays a launch per integration chunk; it wins once the systems fill a good part of its tens of
// thousands of threads. The Lorenz spectrum (1 system) takes 9.2 s on an H100 against 2.7 s on 2 CPU cores.
inline constexpr std::size_t default_min_gpu_systems = 2048;

struct BackendSelection {
    std::shared_ptr<study::Backend> backend; // null when nothing can run the study
    std::vector<std::string> notes;          // why auto chose what it chose
    std::string failure;                     // when backend is null: why
};

class BackendRegistry {
  public:
    void add(std::shared_ptr<study::Backend> backend);
    // By name ("cpu", "cuda"); null when not registered.
    std::shared_ptr<study::Backend> find(const std::string& name) const;
    const std::vector<std::shared_ptr<study::Backend>>& backends() const { return backends_; }

    // `control` (may be null): the job's, whose cancel flag and threads the probe and the
    // calibration follow, and whose progress says "measuring the backends" meanwhile.
    BackendSelection select(study::BackendChoice choice, const study::ResolvedStudy& study,
                            study::RunControl* control = nullptr) const;

    // What auto's choice by work needs: the probe backend (the compiler-free evaluator) and the
    // machine's calibration; `clock` times both (tests pass one their fake backends advance).
    void set_work_estimate(std::shared_ptr<study::Backend> probe,
                           std::shared_ptr<SpeedCalibration> calibration,
                           SecondsClock clock = steady_seconds());

    // Where auto's predictions cannot tell the backends apart, both race (backend_race.h; the
    // default); off, the lower prediction runs.
    void set_race(bool race) { race_ = race; }

    // The fewest systems that auto sends to the GPU.
    std::size_t min_gpu_systems() const { return min_gpu_systems_; }
    void set_min_gpu_systems(std::size_t systems) { min_gpu_systems_ = systems; }

  private:
    BackendSelection select_cpu(BackendSelection selection, const study::ResolvedStudy& study) const;

    std::vector<std::shared_ptr<study::Backend>> backends_;
    std::size_t min_gpu_systems_ = default_min_gpu_systems;
    std::shared_ptr<study::Backend> probe_;
    std::shared_ptr<SpeedCalibration> calibration_;
    std::shared_ptr<WorkMemo> works_; // shared by the registry's copies: every job of a program
    SecondsClock clock_;
    bool race_ = true;
};

} // namespace bif::jobs
