// The backends this build of Bifscope offers: the CPU backend (engine/cpu) and the CUDA backend
// (engine/cuda), each when its stage provides one.
#pragma once

#include "engine/jobs/backend_registry.h"

namespace bif::jobs {

// Batch: programs that run a study and exit (bifscope-cli, MPI ranks). Interactive: the app, where
// a model edit is followed by more runs of it, so that the CUDA backend's tiered compile pays
// (CudaBackendOptions::tiered_compile); in a batch program its background compile would only
// delay the exit.
enum class BackendUse { Batch, Interactive };

BackendRegistry installed_backends(BackendUse use = BackendUse::Batch);

// A backend that starts at once, for JobOptions::stand_in: the CPU backend with the compiler-free
// evaluator only. Null when this build has no CPU backend.
std::shared_ptr<study::Backend> evaluator_stand_in();

} // namespace bif::jobs
