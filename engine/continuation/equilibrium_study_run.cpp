#include "engine/continuation/equilibrium_study_run.h"

#include <algorithm>

namespace bif::cont {

namespace {

ContinuationSettings settings_of(const study::ResolvedEquilibriumStudy& r, int direction,
                                 const std::atomic<bool>* cancel) {
    const study::EquilibriumStudy& s = r.study;
    ContinuationSettings c;
    c.direction = direction;
    c.initial_step = s.step;
    c.min_step = s.min_step;
    c.max_step = s.max_step;
    c.max_points = s.max_points;
    c.box = {{int(r.model->num_states()), s.from, s.to}};
    c.cancel = cancel;
    return c;
}

// The down part reversed (its arclength negative) followed by the up part without its start.
EquilibriumBranch joined(EquilibriumBranch down, EquilibriumBranch up) {
    EquilibriumBranch out;
    std::reverse(down.points.begin(), down.points.end());
    for (auto& p : down.points)
        p.arclength = -p.arclength;
    out.points = std::move(down.points);
    if (!up.points.empty()) out.points.insert(out.points.end(), up.points.begin() + 1, up.points.end());
    out.stop = up.stop;
    out.message = "down: " + down.message + "; up: " + up.message;
    return out;
}

EquilibriumBranch branch_through(const ModelEquations& eq, const study::ResolvedEquilibriumStudy& r,
                                 const std::vector<double>& state, const std::atomic<bool>* cancel) {
    using study::ContinuationDirection;
    const ContinuationDirection d = r.study.direction;
    if (d == ContinuationDirection::Up)
        return continue_equilibrium(eq, r.parameters, 0, state, settings_of(r, 1, cancel));
    EquilibriumBranch down = continue_equilibrium(eq, r.parameters, 0, state, settings_of(r, -1, cancel));
    if (d == ContinuationDirection::Down) return down;
    return joined(std::move(down),
                  continue_equilibrium(eq, r.parameters, 0, state, settings_of(r, 1, cancel)));
}

} // namespace

EquilibriumStudyOutcome run_equilibrium_study(const study::ResolvedEquilibriumStudy& r,
                                              const std::atomic<bool>* cancel) {
    const bool continuation = r.study.analysis == study::EquilibriumAnalysis::Continuation;
    const ModelEquations eq(*r.model, continuation ? std::vector<int>{r.parameter} : std::vector<int>{});
    EquilibriumStudyOutcome out;
    const std::vector<double> p = eq.slots(r.parameters);
    if (!continuation || r.start.empty()) {
        EquilibriumSearch search;
        search.lower = r.lower;
        search.upper = r.upper;
        search.starts = r.study.starts;
        out.equilibria = find_equilibria(eq, p, search);
    }
    if (!continuation) return out;
    std::vector<std::vector<double>> starts;
    if (!r.start.empty())
        starts.push_back(r.start);
    else
        for (const Equilibrium& e : out.equilibria)
            starts.push_back(e.state);
    for (std::size_t b = 0; b < starts.size(); ++b) {
        out.branches.push_back(branch_through(eq, r, starts[b], cancel));
        out.notes.push_back("branch " + std::to_string(b) + ": " + out.branches.back().message);
    }
    if (starts.empty()) out.notes.push_back("no equilibrium in the box to continue");
    return out;
}

} // namespace bif::cont
