#include "engine/continuation/orbit_study_run.h"

#include "engine/continuation/joined_branch.h"
#include "engine/continuation/map_orbit.h"
#include "engine/continuation/orbit_newton.h"
#include "engine/continuation/orbit_shooting.h"
#include "engine/continuation/orbit_stroboscopic.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace bif::cont {

namespace {

using study::OrbitKind;

// The period of one application of the period map, for the transient: k iterates, k forcing
// periods, or the autonomous period's guess.
double map_period(const study::OrbitSpec& o, double forcing_period) {
    return o.kind == OrbitKind::Map            ? o.k
           : o.kind == OrbitKind::Stroboscopic ? o.k * forcing_period
                                               : o.period;
}

// Whole periods of the period map from x, so that a stroboscopic map's phase stays at t = 0.
Eigen::VectorXd settled(const codegen::HostModel& host, const study::OrbitSpec& o,
                        const std::vector<double>& p, Eigen::VectorXd x, double period) {
    const long steps = long(o.transient_periods) * (o.kind == OrbitKind::Map ? o.k : 1);
    if (steps == 0) return x;
    if (o.kind == OrbitKind::Map) {
        Eigen::VectorXd next(x.size());
        for (long j = 0; j < steps; ++j) {
            host.rhs(double(j), x.data(), p.data(), next.data());
            x = next;
            if (!x.allFinite())
                throw std::runtime_error("the transient's iterate " + std::to_string(j + 1) +
                                         " is not finite");
        }
        return x;
    }
    FlowSettings flow;
    flow.rtol = o.rtol;
    flow.atol = o.atol;
    for (long j = 0; j < steps; ++j) {
        FlowResult r;
        std::string why;
        if (!flow_span(host, p, 0.0, x, period, 1, false, flow, r, why))
            throw std::runtime_error("the transient failed after " + std::to_string(j) + " periods: " + why);
        x = r.end;
    }
    return x;
}

ContinuationSettings settings_of(const study::ResolvedEquilibriumStudy& r, int unknowns, int direction,
                                 const std::atomic<bool>* cancel) {
    const study::EquilibriumStudy& s = r.study;
    ContinuationSettings c;
    c.direction = direction;
    c.initial_step = s.step;
    c.min_step = s.min_step;
    c.max_step = s.max_step;
    c.max_points = s.max_points;
    c.box = {{unknowns, s.from, s.to}};
    c.cancel = cancel;
    return c;
}

} // namespace

OrbitStudyOutcome run_orbit_study(const study::ResolvedEquilibriumStudy& r, const std::atomic<bool>* cancel) {
    const study::EquilibriumStudy& s = r.study;
    const study::OrbitSpec& o = s.orbit;
    codegen::Request request;
    request.model = r.model.get();
    request.tangent_derivatives = true;
    if (r.forcing_period) request.observables = {*r.forcing_period};
    const codegen::HostModel host(request);
    const ModelParameters parameters(host, r.parameters, r.parameter);
    const double lambda = r.parameters[std::size_t(r.parameter)];
    const int n = host.dimension();
    if (o.kind != OrbitKind::Map && n > max_flow_dimension)
        throw std::invalid_argument("orbits of flows take at most " + std::to_string(max_flow_dimension) +
                                    " states; the model has " + std::to_string(n));

    FlowSettings flow;
    flow.rtol = o.rtol;
    flow.atol = o.atol;
    // The forcing period is observable 0 of the host model (the only one requested).
    auto forcing_period = [&host](const std::vector<double>& slots) {
        std::vector<double> y(std::size_t(host.dimension()), 0.0),
            value(std::size_t(host.observable_count()));
        host.observables(0.0, y.data(), slots.data(), value.data());
        return value.at(0);
    };
    std::unique_ptr<OrbitProblem> orbit;
    const Eigen::VectorXd start = Eigen::Map<const Eigen::VectorXd>(r.start.data(), n);
    const std::vector<double> slots = parameters.slots(lambda);
    double forcing = 0.0;
    if (o.kind == OrbitKind::Stroboscopic) {
        forcing = forcing_period(slots);
        if (!std::isfinite(forcing) || !(forcing > 0.0))
            throw std::invalid_argument("the forcing period is " + std::to_string(forcing) + " at " +
                                        s.parameter + " = " + std::to_string(lambda) +
                                        "; it must be finite and > 0");
    }
    const Eigen::VectorXd x = settled(host, o, slots, start, map_period(o, forcing));
    Eigen::VectorXd guess = x;
    switch (o.kind) {
    case OrbitKind::Map:
        orbit = std::make_unique<MapOrbit>(host, parameters, o.k);
        break;
    case OrbitKind::Stroboscopic:
        orbit = std::make_unique<StroboscopicOrbit>(host, parameters, forcing_period, o.k, flow, o.segments);
        break;
    case OrbitKind::Autonomous:
        orbit = std::make_unique<ShootingOrbit>(host, parameters, x, flow, o.segments);
        guess.conservativeResize(n + 1);
        guess[n] = o.period;
        break;
    }

    OrbitStudyOutcome out;
    for (const auto& state : r.model->states)
        out.unknown_names.push_back(state.name);
    if (o.kind == OrbitKind::Autonomous) out.unknown_names.push_back("T");
    OrbitPoint p;
    std::string why;
    if (!solve_orbit(*orbit, guess, lambda, OrbitNewtonSettings{}, p, why))
        throw std::runtime_error("no orbit found from the start state at " + s.parameter + " = " +
                                 std::to_string(lambda) + ": " + why);
    out.notes.push_back("start orbit: " + std::string(p.stability.stable() ? "stable" : "unstable") +
                        ", period " + std::to_string(orbit->period(p.u, lambda)) + ", Newton iterations " +
                        std::to_string(p.iterations));
    auto run = [&](int direction) {
        orbit->set_reference(p.u);
        return continue_orbit(*orbit, p.u, lambda, settings_of(r, orbit->unknowns(), direction, cancel));
    };
    using study::ContinuationDirection;
    out.branch = s.direction == ContinuationDirection::Up     ? run(1)
                 : s.direction == ContinuationDirection::Down ? run(-1)
                                                              : joined(run(-1), run(1));
    out.notes.push_back("branch: " + out.branch.message);
    return out;
}

} // namespace bif::cont
