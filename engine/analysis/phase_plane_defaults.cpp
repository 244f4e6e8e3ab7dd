#include "engine/analysis/phase_plane_defaults.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace bif::analysis {

namespace {

const model::Option* find(const model::Model& m, const char* name) {
    for (const auto& o : m.options)
        if (o.name == name) return &o;
    return nullptr;
}

std::optional<double> number(const model::Model& m, const char* name) {
    const model::Option* o = find(m, name);
    if (!o) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(o->value.c_str(), &end);
    if (errno != 0 || end == o->value.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::string state_named(const model::Model& m, const char* option) {
    const model::Option* o = find(m, option);
    return o && m.state_index(o->value) >= 0
               ? m.states[static_cast<std::size_t>(m.state_index(o->value))].name
               : std::string();
}

void take_range(const model::Model& m, const char* lo, const char* hi, double& from, double& to) {
    const auto a = number(m, lo), b = number(m, hi);
    if (a && b && *a < *b) from = *a, to = *b;
}

} // namespace

study::PhasePlaneSettings phase_plane_defaults(const model::Model& model) {
    study::PhasePlaneSettings s;
    s.x = state_named(model, "xp");
    s.y = state_named(model, "yp");
    if (s.x == s.y) s.x.clear(), s.y.clear();
    if (s.x.empty() && model.states.size() >= 2)
        s.x = model.states[0].name == s.y ? model.states[1].name : model.states[0].name;
    if (s.y.empty() && model.states.size() >= 2)
        s.y = model.states[1].name == s.x ? model.states[0].name : model.states[1].name;
    take_range(model, "xlo", "xhi", s.x_from, s.x_to);
    take_range(model, "ylo", "yhi", s.y_from, s.y_to);
    if (!model.parameters.empty()) {
        const auto& p = model.parameters.front();
        s.slider = p.name;
        s.slider_from = p.value == 0.0 ? -1.0 : std::min(0.0, 2 * p.value);
        s.slider_to = p.value == 0.0 ? 1.0 : std::max(0.0, 2 * p.value);
    }
    return s;
}

} // namespace bif::analysis
