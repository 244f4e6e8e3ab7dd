// A study's per-system program ready to run on this machine: either the generated model compiled
// natively together with kernels/bif/study (NativeStudyProgram), or the same templates over the
// compiler-free evaluator (EvaluatorStudyProgram). The runner sees only this interface.
#pragma once

#include "bif/study/orbit_refine.h"
#include "bif/study/view.h"
#include "engine/study/result.h"

#include <string>

namespace bif::cpu {

class StudyProgram {
  public:
    virtual ~StudyProgram() = default;
    // 32-bit carry words per system.
    virtual int carry_words() const = 0;
    // One slice of system `system` of the batch `view` (bif::ensemble::advance_system): at most
    // `budget` attempted steps; true once the system is finished. Thread-safe for distinct systems.
    virtual bool advance(const ensemble::View<double>& view, ensemble::index_t system,
                         long long budget) const = 0;
    virtual study::CodePath code_path() const = 0;
    // Orbit refinement of entry `system` of `view` (bif::ensemble::refine_orbit), for a study that
    // refines orbits (study::refines_orbits). Thread-safe for distinct systems.
    virtual void refine_orbit(const ensemble::OrbitView<double>& view,
                              const ensemble::OrbitSettings& settings, ensemble::index_t system) const = 0;
};

} // namespace bif::cpu
