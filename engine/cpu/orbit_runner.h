// Orbit refinement of a finished diagram on the CPU backend's threads: the systems of
// ensemble::make_orbit_batch, each refined by the study program's refine_orbit (the native module's
// or the evaluator's instantiation of kernels/bif/study/orbit_refine.h), stored into the result.
#pragma once

#include "engine/cpu/study_program.h"
#include "engine/study/backend.h"

namespace bif::cpu {

// Fills result's orbit columns; returns false when cancelled (the columns of unrefined systems
// then say not run). Records the time in result.info.orbit_seconds and a note.
bool refine_orbits(const StudyProgram& program, const study::ResolvedStudy& study, study::Result& result,
                   study::RunControl& control);

} // namespace bif::cpu
