// Models for the code generation tests: a few built directly through the ExprPool API (so that the
// tests do not depend on the parser for the cases they construct on purpose), plus .ode files
// loaded by the parser. The generator and the tests both rebuild a model from its key and both
// derive the same Request from it, so the node ids agree.
#pragma once

#include "engine/codegen/codegen.h"
#include "engine/model/model.h"

#include <optional>
#include <string>
#include <vector>

namespace bif::codegen_test {

// Keys of the models built in code ("builtin:<name>").
std::vector<std::string> builtin_model_keys();

// A builtin key or the path of an .ode file; nothing (and *error set) when it cannot be loaded.
std::optional<model::Model> load_test_model(const std::string& key, std::string* error);

// The model with the names of every state, parameter, derived parameter, aux quantity and event
// text replaced by `replacement(i)`-style neutral names; the formulas are shared.
model::Model renamed(const model::Model& m);

// The hostile-names model: every name and text looks like C++ or preprocessor code.
model::Model hostile_model();

// A Request with a few study observables and study events added to m.pool, always the same for
// the same model, so that those code paths are exercised too.
codegen::Request make_test_request(model::Model& m, codegen::Precision precision,
                                   const std::string& type_name);

} // namespace bif::codegen_test
