// The backends this build of Bifscope offers: the CPU backend (engine/cpu) and the CUDA backend
// (engine/cuda), each when its stage provides one.
#pragma once

#include "engine/jobs/backend_registry.h"

namespace bif::jobs {

BackendRegistry installed_backends();

} // namespace bif::jobs
