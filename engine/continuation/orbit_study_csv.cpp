#include "engine/continuation/orbit_study_csv.h"

#include "engine/continuation/equilibrium_csv.h"
#include "engine/continuation/orbit_csv.h"

#include <algorithm>
#include <ostream>

namespace bif::cont {

namespace {

void write_curves(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                  const OrbitStudyOutcome& outcome) {
    std::size_t mu = 0;
    for (const auto& c : outcome.curves)
        for (const OrbitCurvePoint& p : c.curve.points)
            mu = std::max(mu, p.stability.multipliers.size());
    out << "curve,kind," << r.study.parameter << ',' << r.study.second_parameter;
    write_orbit_columns_header(out, outcome.unknown_names, mu);
    out << '\n';
    for (std::size_t c = 0; c < outcome.curves.size(); ++c)
        for (const OrbitCurvePoint& p : outcome.curves[c].curve.points) {
            out << c << ',' << outcome.curves[c].kind << ',' << csv_number(p.alpha) << ','
                << csv_number(p.beta);
            write_orbit_columns(out, p.unknowns, p.period, p.stability, p.label, p.arclength, mu);
            out << '\n';
        }
}

} // namespace

void write_orbit_study_csv(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                           const OrbitStudyOutcome& outcome) {
    write_study_comments(out, r, outcome.notes);
    if (r.study.analysis == study::EquilibriumAnalysis::OrbitCurves)
        write_curves(out, r, outcome);
    else
        write_orbit_branch_csv(out, outcome.branch, r.study.parameter, outcome.unknown_names);
}

} // namespace bif::cont
