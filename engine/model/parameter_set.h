// `set name {a=1,x=0,dt=.25}`: what applying a named set does to a model, as XPPAUT 6.11 does it.
//
// Each pair sets a parameter's value, else a state's initial value, else an `@` option (XPPAUT
// reads the same pairs with its option reader); values are plain numbers read like C's atof
// (`a=2*3` gives 2). Sets apply on top of each other: XPPAUT's batch mode runs them in file order,
// each starting from the parameters, initial values and options the earlier ones left (measured
// with xppaut 6.11).
#pragma once

#include "engine/model/model.h"

#include <string>
#include <vector>

namespace bif::model {

// The names in `set` that are no parameter, state or option XPPAUT knows (it ignores them).
std::vector<std::string> apply_parameter_set(Model& model, const ParameterSet& set);

// The index of the set with this name (case-insensitive), or -1.
int find_parameter_set(const Model& model, std::string_view name);

} // namespace bif::model
