// A study whose chosen backend would first compile for long runs on the CPU while that backend
// compiles in the background (study::Backend::compile_in_background): a big model's GPU module, in
// the app, as the first tier does for small models. Only auto's choice moves: whoever names the GPU
// waits for it.
#pragma once

#include "engine/jobs/backend_registry.h"

namespace bif::jobs {

// Moves `selection` to the CPU backend, with the compiling backend's note, where the choice is auto,
// the selected backend compiles this study in the background instead of running it now, and the CPU
// backend can run it. Otherwise leaves `selection` as it is.
void run_on_cpu_while_compiling(const BackendRegistry& registry, study::BackendChoice choice,
                                const study::ResolvedStudy& study, BackendSelection& selection);

} // namespace bif::jobs
