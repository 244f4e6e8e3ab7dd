#include "engine/continuation/orbit_study_run.h"

#include "engine/continuation/map_orbit.h"
#include "engine/continuation/orbit_newton.h"
#include "engine/continuation/orbit_shooting.h"
#include "engine/continuation/orbit_stroboscopic.h"
#include "engine/continuation/study_continuation.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
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

// The integrator settings the study's orbit asks for (its tolerances).
FlowSettings flow_settings(const study::OrbitSpec& o) {
    FlowSettings flow;
    flow.rtol = o.rtol;
    flow.atol = o.atol;
    return flow;
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
    const FlowSettings flow = flow_settings(o);
    for (long j = 0; j < steps; ++j) {
        FlowResult r;
        std::string why;
        if (!flow_span(host, p, 0.0, x, period, 1, false, flow, r, why))
            throw std::runtime_error("the transient failed after " + std::to_string(j) + " periods: " + why);
        x = r.end;
    }
    return x;
}

std::optional<OrbitBifurcation> curve_kind(const std::string& label) {
    if (label == "LP") return OrbitBifurcation::Fold;
    if (label == "PD") return OrbitBifurcation::PeriodDoubling;
    if (label == "NS") return OrbitBifurcation::NeimarkSacker;
    return std::nullopt;
}

// Every LP, PD and NS point of the branch (each once) continued in the two parameters.
void continue_curves(const study::ResolvedEquilibriumStudy& r, const OrbitFactory& factory,
                     OrbitStudyOutcome& out, const std::atomic<bool>* cancel) {
    const study::EquilibriumStudy& s = r.study;
    std::vector<const OrbitBranchPoint*> starts;
    for (const OrbitBranchPoint& p : out.branch.points)
        if (curve_kind(p.label) && std::none_of(starts.begin(), starts.end(), [&](const auto* q) {
                return q->label == p.label &&
                       same_branch_point(q->parameter, q->unknowns, p.parameter, p.unknowns);
            }))
            starts.push_back(&p);
    for (const OrbitBranchPoint* p : starts) {
        const OrbitCurveStart start{
            r.parameters, r.parameter, r.second_parameter,
            Eigen::Map<const Eigen::VectorXd>(p->unknowns.data(), Eigen::Index(p->unknowns.size())),
            p->parameter};
        OrbitCurve curve;
        try {
            curve = continued_in(s.direction, [&](int direction) {
                ContinuationSettings c = continuation_settings(s, int(p->unknowns.size()), direction, cancel);
                c.box.clear();
                return continue_orbit_curve(factory, *curve_kind(p->label), start, {s.from, s.to},
                                            {s.second_from, s.second_to}, c);
            });
        } catch (const std::invalid_argument& e) {
            out.notes.push_back(p->label + " at " + s.parameter + " = " + std::to_string(p->parameter) +
                                ": not continued (" + e.what() + ")");
            continue;
        }
        out.notes.push_back("curve " + std::to_string(out.curves.size()) + " (" + p->label + " at " +
                            s.parameter + " = " + std::to_string(p->parameter) + "): " + curve.message);
        out.curves.push_back({p->label, std::move(curve)});
    }
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

    const FlowSettings flow = flow_settings(o);
    // The forcing period is observable 0 of the host model (the only one requested).
    auto forcing_period = [&host](const std::vector<double>& slots) {
        std::vector<double> y(std::size_t(host.dimension()), 0.0),
            value(std::size_t(host.observable_count()));
        host.observables(0.0, y.data(), slots.data(), value.data());
        return value.at(0);
    };
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
    // The period map at given user parameter values, continued in the study's parameter.
    const OrbitFactory factory = [&](const std::vector<double>& user) -> std::unique_ptr<OrbitProblem> {
        const ModelParameters at(host, user, r.parameter);
        switch (o.kind) {
        case OrbitKind::Map:
            return std::make_unique<MapOrbit>(host, at, o.k);
        case OrbitKind::Stroboscopic:
            return std::make_unique<StroboscopicOrbit>(host, at, forcing_period, o.k, flow, o.segments);
        case OrbitKind::Autonomous:
            return std::make_unique<ShootingOrbit>(host, at, x, flow, o.segments);
        }
        return nullptr;
    };
    const std::unique_ptr<OrbitProblem> orbit = factory(r.parameters);
    Eigen::VectorXd guess = x;
    if (o.kind == OrbitKind::Autonomous) {
        guess.conservativeResize(n + 1);
        guess[n] = o.period;
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
    out.branch = continued_in(s.direction, [&](int direction) {
        orbit->set_reference(p.u);
        return continue_orbit(*orbit, p.u, lambda,
                              continuation_settings(s, orbit->unknowns(), direction, cancel));
    });
    out.notes.push_back("branch: " + out.branch.message);
    if (s.analysis == study::EquilibriumAnalysis::OrbitCurves) continue_curves(r, factory, out, cancel);
    return out;
}

} // namespace bif::cont
