// The backends a program offers, and the choice among them for one study:
//   cpu   the CPU backend;
//   cuda  the CUDA backend, or a failure with its one-line reason ("cuda: no NVIDIA driver found")
//         when it is missing, unavailable or does not support the study: an explicit request is
//         never quietly run elsewhere;
//   auto  the CUDA backend when it can run the study, else the CPU backend. That fall-back is
//         recorded as a one-line note ("cuda: no NVIDIA driver found; running on the CPU") that the
//         job copies into the result's RunInfo::notes.
#pragma once

#include "engine/study/backend.h"

#include <memory>
#include <string>
#include <vector>

namespace bif::jobs {

struct BackendSelection {
    std::shared_ptr<study::Backend> backend; // null when nothing can run the study
    std::vector<std::string> notes;          // why the choice differs from what was asked
    std::string failure;                     // when backend is null: why
};

class BackendRegistry {
  public:
    void add(std::shared_ptr<study::Backend> backend);
    // By name ("cpu", "cuda"); null when not registered.
    std::shared_ptr<study::Backend> find(const std::string& name) const;
    const std::vector<std::shared_ptr<study::Backend>>& backends() const { return backends_; }

    BackendSelection select(study::BackendChoice choice, const study::ResolvedStudy& study) const;

  private:
    std::vector<std::shared_ptr<study::Backend>> backends_;
};

} // namespace bif::jobs
