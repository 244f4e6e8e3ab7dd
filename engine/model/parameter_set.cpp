#include "engine/model/parameter_set.h"

#include "engine/model/option_names.h"
#include "engine/model/text.h"

#include <cstdlib>

namespace bif::model {

std::vector<std::string> apply_parameter_set(Model& model, const ParameterSet& set) {
    std::vector<std::string> unknown;
    for (const auto& [name, value] : set.assignments) {
        const double number = std::strtod(value.c_str(), nullptr);
        if (const int p = model.parameter_index(name); p >= 0) {
            model.parameters[static_cast<std::size_t>(p)].value = number;
        } else if (const int s = model.state_index(name); s >= 0) {
            model.states[static_cast<std::size_t>(s)].initial = number;
        } else if (std::string canonical = detail::canonical_option_name(name); !canonical.empty()) {
            Option o;
            o.name = std::move(canonical);
            o.written = name;
            o.value = value;
            o.used_by_bifscope = detail::option_used_by_bifscope(o.name);
            o.where = set.where;
            model.options.push_back(std::move(o));
        } else {
            unknown.push_back(name);
        }
    }
    return unknown;
}

int find_parameter_set(const Model& model, std::string_view name) {
    for (std::size_t i = 0; i < model.sets.size(); ++i)
        if (detail::iequals(model.sets[i].name, name)) return static_cast<int>(i);
    return -1;
}

} // namespace bif::model
