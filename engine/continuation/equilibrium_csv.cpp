#include "engine/continuation/equilibrium_csv.h"

#include <charconv>
#include <cmath>
#include <ostream>
#include <sstream>

namespace bif::cont {

namespace {

// Shortest round-trip text; empty for NaN (a missing value).
std::string number(double v) {
    if (std::isnan(v)) return "";
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
    return std::string(text, end);
}

void eigenvalue_header(std::ostream& out, std::size_t n) {
    for (std::size_t k = 1; k <= n; ++k)
        out << ",re_" << k << ",im_" << k;
    out << "\n";
}

void eigenvalue_columns(std::ostream& out, const Eigen::VectorXcd& mu) {
    for (const std::complex<double>& m : mu)
        out << ',' << number(m.real()) << ',' << number(m.imag());
    out << "\n";
}

void write_equilibria(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                      const std::vector<Equilibrium>& equilibria) {
    out << "equilibrium";
    for (const auto& s : r.model->states)
        out << ',' << s.name;
    out << ",type,stable,unstable,complex_pairs";
    eigenvalue_header(out, r.model->num_states());
    for (std::size_t i = 0; i < equilibria.size(); ++i) {
        const Equilibrium& e = equilibria[i];
        out << i;
        for (double y : e.state)
            out << ',' << number(y);
        out << ',' << name_of(e.stability.type) << ',' << int(e.stability.is_stable()) << ','
            << e.stability.unstable << ',' << e.stability.complex_pairs;
        eigenvalue_columns(out, e.eigenvalues);
    }
}

void write_branches(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                    const std::vector<EquilibriumBranch>& branches) {
    out << "branch," << r.study.parameter;
    for (const auto& s : r.model->states)
        out << ',' << s.name;
    out << ",stable,unstable,type,label,first_lyapunov,arclength";
    eigenvalue_header(out, r.model->num_states());
    for (std::size_t b = 0; b < branches.size(); ++b)
        for (const EquilibriumBranchPoint& p : branches[b].points) {
            out << b << ',' << number(p.parameter);
            for (double y : p.state)
                out << ',' << number(y);
            out << ',' << int(p.stability.is_stable()) << ',' << p.stability.unstable << ','
                << name_of(p.stability.type) << ',' << p.label << ',' << number(p.first_lyapunov) << ','
                << number(p.arclength);
            eigenvalue_columns(out, p.eigenvalues);
        }
}

void write_curves(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                  const std::vector<EquilibriumStudyOutcome::Curve>& curves) {
    out << "curve,kind," << r.study.parameter << ',' << r.study.second_parameter;
    for (const auto& s : r.model->states)
        out << ',' << s.name;
    out << ",label,arclength\n";
    for (std::size_t c = 0; c < curves.size(); ++c)
        for (const CurvePoint& p : curves[c].curve.points) {
            out << c << ',' << curves[c].kind << ',' << number(p.alpha) << ',' << number(p.beta);
            for (double y : p.state)
                out << ',' << number(y);
            out << ',' << p.label << ',' << number(p.arclength) << "\n";
        }
}

} // namespace

void write_equilibrium_study_csv(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                                 const EquilibriumStudyOutcome& outcome) {
    std::vector<std::string> lines{"equilibria found: " + std::to_string(outcome.equilibria.size())};
    lines.insert(lines.end(), outcome.notes.begin(), outcome.notes.end());
    write_study_comments(out, r, lines);
    switch (r.study.analysis) {
    case study::EquilibriumAnalysis::Equilibria:
        return write_equilibria(out, r, outcome.equilibria);
    case study::EquilibriumAnalysis::Continuation:
        return write_branches(out, r, outcome.branches);
    case study::EquilibriumAnalysis::Curves:
        return write_curves(out, r, outcome.curves);
    case study::EquilibriumAnalysis::OrbitContinuation: // orbit_study_csv.h writes those
    case study::EquilibriumAnalysis::OrbitCurves:
        return;
    }
}

void write_study_comments(std::ostream& out, const study::ResolvedEquilibriumStudy& r,
                          const std::vector<std::string>& lines) {
    out << "# bifscope result\n# analysis: " << study::name_of(r.study.analysis) << "\n";
    for (const std::string& line : lines)
        out << "# " << line << "\n";
    std::istringstream json(study::write_equilibrium_study_json(r.study));
    for (std::string line; std::getline(json, line);)
        out << "# " << line << "\n";
}

} // namespace bif::cont
