#include "engine/model/model.h"

#include "engine/model/text.h"

namespace bif::model {

int Model::state_index(std::string_view name) const {
    for (std::size_t i = 0; i < states.size(); ++i)
        if (detail::iequals(states[i].name, name)) return static_cast<int>(i);
    return -1;
}

int Model::parameter_index(std::string_view name) const {
    for (std::size_t i = 0; i < parameters.size(); ++i)
        if (detail::iequals(parameters[i].name, name)) return static_cast<int>(i);
    return -1;
}

const Option* Model::option(std::string_view canonical_name) const {
    // Later options override earlier ones, as in XPPAUT.
    for (auto it = options.rbegin(); it != options.rend(); ++it)
        if (detail::iequals(it->name, canonical_name)) return &*it;
    return nullptr;
}

} // namespace bif::model
