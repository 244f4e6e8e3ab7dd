// The backends this build of Bifscope offers: the CPU backend (engine/cpu) and the CUDA backend
// (engine/cuda), each when its stage provides one.
#pragma once

#include "engine/jobs/backend_registry.h"

namespace bif::jobs {

BackendRegistry installed_backends();

// A backend that starts at once, for JobOptions::stand_in: the CPU backend with the compiler-free
// evaluator only. Null when this build has no CPU backend.
std::shared_ptr<study::Backend> evaluator_stand_in();

} // namespace bif::jobs
