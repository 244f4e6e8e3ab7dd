#include "engine/continuation/orbit_study_csv.h"

#include "engine/continuation/orbit_csv.h"

#include <charconv>
#include <cmath>
#include <ostream>
#include <sstream>

namespace bif::cont {

namespace {

// Shortest round-trip text of a double.
std::string number(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

void write_curves(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                  const OrbitStudyOutcome& outcome) {
    std::size_t mu = 0;
    for (const auto& c : outcome.curves)
        for (const OrbitCurvePoint& p : c.curve.points)
            mu = std::max(mu, p.stability.multipliers.size());
    out << "curve,kind," << r.study.parameter << ',' << r.study.second_parameter;
    for (const std::string& name : outcome.unknown_names)
        out << ',' << name;
    out << ",period,stable,unstable,label,arclength";
    for (std::size_t k = 1; k <= mu; ++k)
        out << ",mu_abs_" << k << ",mu_re_" << k << ",mu_im_" << k;
    out << '\n';
    for (std::size_t c = 0; c < outcome.curves.size(); ++c)
        for (const OrbitCurvePoint& p : outcome.curves[c].curve.points) {
            out << c << ',' << outcome.curves[c].kind << ',' << number(p.alpha) << ',' << number(p.beta);
            for (double u : p.unknowns)
                out << ',' << number(u);
            out << ',' << number(p.period) << ',' << (p.stability.stable() ? 1 : 0) << ','
                << p.stability.unstable << ',' << p.label << ',' << number(p.arclength);
            for (std::size_t k = 0; k < mu; ++k) {
                if (k < p.stability.multipliers.size()) {
                    const FloquetMultiplier& m = p.stability.multipliers[k];
                    out << ',' << number(std::exp(m.log_modulus)) << ',' << number(m.value.real()) << ','
                        << number(m.value.imag());
                } else {
                    out << ",,,";
                }
            }
            out << '\n';
        }
}

} // namespace

void write_orbit_study_csv(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                           const OrbitStudyOutcome& outcome) {
    out << "# bifscope result\n# analysis: " << study::name_of(r.study.analysis) << "\n";
    for (const std::string& note : outcome.notes)
        out << "# " << note << "\n";
    std::istringstream json(study::write_equilibrium_study_json(r.study));
    for (std::string line; std::getline(json, line);)
        out << "# " << line << "\n";
    if (r.study.analysis == study::EquilibriumAnalysis::OrbitCurves)
        write_curves(out, r, outcome);
    else
        write_orbit_branch_csv(out, outcome.branch, r.study.parameter, outcome.unknown_names);
}

} // namespace bif::cont
