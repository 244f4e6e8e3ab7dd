#include "engine/continuation/equilibrium_study_run.h"

#include "engine/continuation/study_continuation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace bif::cont {

namespace {

EquilibriumBranch branch_through(const ModelEquations& eq, const study::ResolvedEquilibriumStudy& r,
                                 const std::vector<double>& state, const std::atomic<bool>* cancel) {
    return continued_in(r.study.direction, [&](int direction) {
        return continue_equilibrium(
            eq, r.parameters, 0, state,
            continuation_settings(r.study, int(r.model->num_states()), direction, cancel));
    });
}

bool same_point(const EquilibriumBranchPoint& a, const EquilibriumBranchPoint& b) {
    return same_branch_point(a.parameter, a.state, b.parameter, b.state);
}

// The LP and H points of the branches, each once. A fold test that fires at a branch point (the
// branch turns there, as at a pitchfork) marks no fold of equilibria: it is left out.
std::vector<const EquilibriumBranchPoint*> curve_starts(const std::vector<EquilibriumBranch>& branches,
                                                        std::vector<std::string>& notes) {
    std::vector<const EquilibriumBranchPoint*> starts;
    for (const EquilibriumBranch& b : branches)
        for (const EquilibriumBranchPoint& p : b.points) {
            if (p.label != "LP" && p.label != "H") continue;
            const bool at_branch_point = std::any_of(b.points.begin(), b.points.end(), [&](const auto& q) {
                return q.label == "BP" && same_point(p, q);
            });
            if (p.label == "LP" && at_branch_point) {
                notes.push_back("LP at the branch point " + std::to_string(p.parameter) + ": not continued");
                continue;
            }
            if (std::none_of(starts.begin(), starts.end(),
                             [&](const auto* s) { return s->label == p.label && same_point(*s, p); }))
                starts.push_back(&p);
        }
    return starts;
}

void continue_curves(const ModelEquations& eq, const study::ResolvedEquilibriumStudy& r,
                     EquilibriumStudyOutcome& out, const std::atomic<bool>* cancel) {
    const study::EquilibriumStudy& s = r.study;
    for (const EquilibriumBranchPoint* p : curve_starts(out.branches, out.notes)) {
        std::vector<double> values = r.parameters;
        values[std::size_t(r.parameter)] = p->parameter;
        const CurveKind kind = p->label == "LP" ? CurveKind::Fold : CurveKind::Hopf;
        BifurcationCurve curve = continued_in(s.direction, [&](int direction) {
            return continue_bifurcation_curve(
                eq, kind, values, p->state, {s.from, s.to}, {s.second_from, s.second_to},
                continuation_settings(s, int(r.model->num_states()), direction, cancel));
        });
        out.notes.push_back("curve " + std::to_string(out.curves.size()) + " (" + p->label + " at " +
                            s.parameter + " = " + std::to_string(p->parameter) + "): " + curve.message);
        out.curves.push_back({p->label, std::move(curve)});
    }
}

} // namespace

EquilibriumStudyOutcome run_equilibrium_study(const study::ResolvedEquilibriumStudy& r,
                                              const std::atomic<bool>* cancel) {
    if (r.study.is_orbit()) throw std::invalid_argument("an orbit study runs through run_orbit_study");
    const bool continuation = r.study.is_continuation();
    const bool curves = r.study.analysis == study::EquilibriumAnalysis::Curves;
    const ModelEquations eq(*r.model, curves         ? std::vector<int>{r.parameter, r.second_parameter}
                                      : continuation ? std::vector<int>{r.parameter}
                                                     : std::vector<int>{});
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
    if (curves) continue_curves(eq, r, out, cancel);
    return out;
}

} // namespace bif::cont
