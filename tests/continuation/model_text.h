// Parses .ode text for the continuation tests; a parse error fails the test with its diagnostics.
#pragma once

#include "engine/model/parse.h"

#include <catch2/catch.hpp>
#include <string>

inline bif::model::Model parsed_model(const std::string& text) {
    bif::model::ParseResult r = bif::model::parse_model(text);
    std::string messages;
    for (const auto& d : r.diagnostics)
        messages += d.message + "\n";
    INFO(messages);
    REQUIRE(r.model.has_value());
    return std::move(*r.model);
}

inline bif::model::Model bundled_model(const std::string& name) {
    bif::model::ParseResult r = bif::model::load_model_file(std::string(BIFSCOPE_MODELS_DIR) + "/" + name);
    REQUIRE(r.model.has_value());
    return std::move(*r.model);
}

// The model's parameter values in slot order, with the named ones replaced.
inline std::vector<double> parameter_values(const bif::model::Model& m,
                                            std::vector<std::pair<std::string, double>> overrides) {
    std::vector<double> v;
    for (const auto& p : m.parameters)
        v.push_back(p.value);
    for (const auto& [name, value] : overrides) {
        const int k = m.parameter_index(name);
        REQUIRE(k >= 0);
        v[std::size_t(k)] = value;
    }
    return v;
}
