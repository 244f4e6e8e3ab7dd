// Code generation: a resolved model plus a study's expressions in, deterministic C++ out.
//
// The source is one struct following kernels/bif/model_contract.h, self-contained apart from
// `#include "bif/config.h"` (guarded, so that the NVRTC build can prepend that header itself). It
// compiles as host C++ and through NVRTC as CUDA. Only numbers and operators come from the user:
// states are y[i], parameters p[i], temporaries are numbered; names never appear.
#pragma once

#include "engine/model/model.h"

#include <string>
#include <vector>

namespace bif::codegen {

enum class Precision { Float, Double };

// An event a study adds after the model's own `global` events (a Poincaré section, say).
struct StudyEvent {
    sym::NodeId condition = 0;
    int direction = 1; // +1, -1, or 2 for any crossing (0 is reserved for XPPAUT's exact-zero test)
};

struct Request {
    const model::Model* model = nullptr;
    Precision precision = Precision::Double;
    std::string type_name = "BifModel";   // must be a C++ identifier; chosen by the caller, not the user
    std::vector<sym::NodeId> observables; // recorded study expressions, in model->pool
    std::vector<StudyEvent> study_events;
    // Also generate hessian_vector and jacobian_time_vector (the second-derivative terms of the
    // tangent system's Jacobian, for Rosenbrock methods in Lyapunov studies). Off by default: they
    // grow with N^2 terms, which ordinary and big models should not pay for.
    bool tangent_derivatives = false;
};

std::string generate_source(const Request& request);

// FNV-1a 64-bit of the text as 16 hex digits: the module-cache key part for generated source.
std::string source_hash(std::string_view text);

} // namespace bif::codegen
