// Stage 7 of the front end: declarations -> a resolved Model.
//
// Registers every name in file order (duplicates, reserved names, XPPAUT's name length), applies
// initial values, resolves derived parameters, checks user functions (recursion, bodies), then
// resolves fixed variables, right-hand sides, aux quantities and events, and copies options,
// sets and comments. Also builds the scope of a finished model for study expressions.
#pragma once

#include "engine/model/declarations.h"
#include "engine/model/diagnostic_sink.h"
#include "engine/model/scope.h"

namespace bif::model::detail {

// Fills `model` (whose pool is empty) from the declarations; the model is usable only when the
// sink holds no errors afterwards.
void build_model(const Declarations& declarations, Model& model, DiagnosticSink& sink);

// The names of a finished model (states, parameters, derived parameters, numbers, fixed
// variables, user functions, aux names for messages), for parse_expression.
Scope scope_of(const Model& model);

} // namespace bif::model::detail
