// Helpers for the model language tests: parse a text, find a diagnostic, evaluate a model's
// formulas at its initial state.
#pragma once

#include "engine/model/parse.h"

#include <string>
#include <vector>

namespace bif::model::test {

inline const Diagnostic* find_diagnostic(const std::vector<Diagnostic>& ds, const std::string& code) {
    for (const auto& d : ds)
        if (d.code == code) return &d;
    return nullptr;
}

inline std::string all_diagnostics(const std::vector<Diagnostic>& ds) {
    std::string s;
    for (const auto& d : ds)
        s += d.format() + "\n";
    return s;
}

// State values at the initial state and all parameter slots (derived ones evaluated).
struct Point {
    std::vector<double> y;
    std::vector<double> p;
    double t = 0.0;
};

inline Point initial_point(const Model& m) {
    Point pt;
    for (const auto& s : m.states)
        pt.y.push_back(s.initial);
    for (const auto& q : m.parameters)
        pt.p.push_back(q.value);
    for (const auto& d : m.derived)
        pt.p.push_back(m.pool.evaluate(d.formula, pt.y.data(), pt.p.data(), 0.0));
    pt.y.push_back(0.0); // keeps .data() valid for models without states
    pt.p.push_back(0.0);
    return pt;
}

inline double evaluate_at_start(const Model& m, sym::NodeId e) {
    const Point pt = initial_point(m);
    return m.pool.evaluate(e, pt.y.data(), pt.p.data(), pt.t);
}

inline const NamedFormula* aux_named(const Model& m, const std::string& name) {
    for (const auto& a : m.aux)
        if (a.name == name) return &a;
    return nullptr;
}

} // namespace bif::model::test
