#include "engine/study/orbit_columns.h"

#include "engine/study/resolved_study.h"

#include <cmath>
#include <map>

namespace bif::study {

const char* name_of(OrbitStatus status) {
    switch (status) {
    case OrbitStatus::NotRun:
        return "not_run";
    case OrbitStatus::Converged:
        return "converged";
    case OrbitStatus::NotConverged:
        return "not_converged";
    case OrbitStatus::Singular:
        return "singular";
    case OrbitStatus::IntegrationFailed:
        return "integration_failed";
    case OrbitStatus::NoPeriod:
        return "no_period";
    }
    return "unknown";
}

bool refines_orbits(const ResolvedStudy& study) {
    return study.study.analysis == AnalysisKind::Bifurcation && study.study.bifurcation.orbits.refine;
}

std::vector<std::string> orbit_column_names(const ResolvedStudy& study) {
    if (!refines_orbits(study)) return {};
    std::vector<std::string> names{orbit_status_column, orbit_period_column, orbit_iterations_column,
                                   orbit_max_modulus_column, orbit_stable_column};
    for (const auto& state : study.model->states)
        names.push_back("orbit_" + state.name);
    for (std::size_t k = 1; k <= study.model->num_states(); ++k) {
        names.push_back("orbit_mu" + std::to_string(k) + "_re");
        names.push_back("orbit_mu" + std::to_string(k) + "_im");
    }
    return names;
}

int first_orbit_column(const Result& result) {
    for (std::size_t c = 0; c < result.scalars.size(); ++c)
        if (result.scalars[c].name == orbit_status_column) return int(c);
    return -1;
}

namespace {

bool points_match(const std::vector<double>& a, const std::vector<double>& b, double tolerance) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(std::abs(a[i] - b[i]) <= tolerance * (1.0 + std::abs(a[i])))) return false;
    return true;
}

RefinedOrbit orbit_of(const Result& r, std::size_t first, std::size_t system, std::size_t states,
                      std::vector<double> parameters) {
    auto value = [&](std::size_t column) { return r.scalars[first + column].values[system]; };
    RefinedOrbit o;
    o.system = system;
    o.parameters = std::move(parameters);
    o.period = std::isnan(value(1)) ? 0 : int(value(1));
    o.max_modulus = value(3);
    o.stable = value(4) == 1.0;
    for (std::size_t i = 0; i < states; ++i)
        o.point.push_back(value(5 + i));
    for (std::size_t k = 0; k < states; ++k)
        o.multipliers.emplace_back(value(5 + states + 2 * k), value(6 + states + 2 * k));
    o.systems = 1;
    return o;
}

} // namespace

std::vector<RefinedOrbit> distinct_orbits(const ResolvedStudy& study, const Result& result,
                                          double tolerance) {
    const int first = first_orbit_column(result);
    if (first < 0) return {};
    const std::size_t states = study.model->num_states();
    std::vector<RefinedOrbit> orbits;
    // (parameter values, period) -> the orbits found there so far
    std::map<std::pair<std::vector<double>, int>, std::vector<std::size_t>> seen;
    const std::vector<double>& status = result.scalars[std::size_t(first)].values;
    for (std::size_t s = 0; s < result.system_count; ++s) {
        if (status[s] != double(int(OrbitStatus::Converged))) continue;
        std::vector<double> parameters;
        for (std::size_t a = 0; a < study.axes.size() && a < result.axes.size(); ++a)
            if (study.axes[a].target == SweepTarget::Parameter)
                parameters.push_back(result.axes[a].values[s]);
        RefinedOrbit o = orbit_of(result, std::size_t(first), s, states, std::move(parameters));
        std::vector<std::size_t>& here = seen[{o.parameters, o.period}];
        bool duplicate = false;
        for (std::size_t k : here)
            if (points_match(orbits[k].point, o.point, tolerance)) {
                ++orbits[k].systems;
                duplicate = true;
                break;
            }
        if (duplicate) continue;
        here.push_back(orbits.size());
        orbits.push_back(std::move(o));
    }
    return orbits;
}

} // namespace bif::study
