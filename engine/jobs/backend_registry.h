// The backends a program offers, and the choice among them for one study:
//   cpu   the CPU backend;
//   cuda  the CUDA backend, or a failure with its one-line reason ("cuda: no NVIDIA driver found")
//         when it is missing, unavailable or does not support the study: an explicit request is
//         never quietly run elsewhere;
//   auto  by the work at hand: a study with fewer systems than min_gpu_systems() runs on the CPU,
//         a bigger one on the CUDA backend when it can run the study, else on the CPU. The reason is
//         a one-line note ("auto: 1 system; the CPU is faster for so few", "cuda: no NVIDIA driver
//         found; running on the CPU") that the job copies into the result's RunInfo::notes.
#pragma once

#include "engine/study/backend.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace bif::jobs {

// A GPU runs one system per thread, each thread several times slower than a CPU core, and pays a
// launch per integration chunk; it wins once the systems fill a good part of its tens of thousands
// of threads. The Lorenz spectrum (1 system) takes 9.2 s on an H100 against 2.7 s on 2 CPU cores.
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

    BackendSelection select(study::BackendChoice choice, const study::ResolvedStudy& study) const;

    // The fewest systems that auto sends to the GPU.
    std::size_t min_gpu_systems() const { return min_gpu_systems_; }
    void set_min_gpu_systems(std::size_t systems) { min_gpu_systems_ = systems; }

  private:
    BackendSelection select_cpu(BackendSelection selection, const study::ResolvedStudy& study) const;

    std::vector<std::shared_ptr<study::Backend>> backends_;
    std::size_t min_gpu_systems_ = default_min_gpu_systems;
};

} // namespace bif::jobs
