// The formulas behind every member function of a generated model, collected once from a Request.
//
// Both back ends (the C++ source writer and the compiler-free host evaluator) start from this, so
// they compute the same nodes: the Jacobian and df/dt are differentiated here, events are the
// model's `global` events followed by the study's events.
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/symbolic/expr.h"

#include <vector>

namespace bif::codegen::detail {

struct DerivedSlot {
    std::uint32_t slot = 0;
    sym::NodeId formula = 0;
};

// What a tangent vector needs at event k (the saltation matrix, bif/lyapunov.h). Only events that
// reset a state or a parameter map tangent vectors; the others (study events) have no formulas.
struct EventSaltation {
    bool maps_tangent = false;
    std::vector<sym::NodeId> gradient;   // N + 1: dg/dy_0 .. dg/dy_{N-1}, dg/dt
    std::vector<std::uint32_t> rows;     // the states it resets, in assignment order
    std::vector<sym::NodeId> reset_rows; // rows.size() * (N + 1): dR_i/dy_0 .. dR_i/dy_{N-1}, dR_i/dt
};

struct ModelFunctions {
    sym::ExprPool pool; // a copy of the model's pool, extended with the derivatives
    int num_states = 0;
    int num_params = 0;
    int num_param_slots = 0;
    std::vector<DerivedSlot> derived;              // in dependency order
    std::vector<sym::NodeId> rhs;                  // N
    std::vector<sym::NodeId> jacobian;             // N*N, row-major: d rhs_i / d y_j
    std::vector<sym::NodeId> time_derivative;      // N
    std::vector<sym::NodeId> events;               // E
    std::vector<int> event_directions;             // E
    std::vector<std::vector<model::Reset>> resets; // E; study events have none
    std::vector<EventSaltation> saltation;         // E
    // Only when Request::tangent_derivatives: with y[N + j] standing for the tangent vector's v_j,
    // u = J(y) v; hessian_vector[i*N + l] = d u_i / d y_l and jacobian_time_vector[i] = d u_i / d t.
    std::vector<sym::NodeId> hessian_vector;       // N*N or empty
    std::vector<sym::NodeId> jacobian_time_vector; // N or empty
    std::vector<sym::NodeId> aux;                  // A
    std::vector<sym::NodeId> observables;          // O
};

// Throws std::invalid_argument for a malformed request (no model, nodes outside the pool, reset
// targets outside the slots, a study event direction other than +1, -1 or 2).
ModelFunctions collect_model_functions(const Request& request);

} // namespace bif::codegen::detail
