#include "engine/continuation/orbit_csv.h"

#include <charconv>
#include <cmath>
#include <ostream>

namespace bif::cont {
namespace {

// Shortest round-trip text of a double.
std::string number(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

std::size_t multiplier_columns(const OrbitBranch& branch) {
    std::size_t most = 0;
    for (const OrbitBranchPoint& p : branch.points)
        most = std::max(most, p.stability.multipliers.size());
    return most;
}

} // namespace

void write_orbit_branch_csv(std::ostream& out, const OrbitBranch& branch, const std::string& parameter_name,
                            const std::vector<std::string>& unknown_names) {
    const std::size_t mu = multiplier_columns(branch);
    out << parameter_name;
    for (const std::string& name : unknown_names)
        out << ',' << name;
    out << ",period,stable,unstable,label,arclength";
    for (std::size_t k = 1; k <= mu; ++k)
        out << ",mu_abs_" << k << ",mu_re_" << k << ",mu_im_" << k;
    out << '\n';
    for (const OrbitBranchPoint& p : branch.points) {
        out << number(p.parameter);
        for (double u : p.unknowns)
            out << ',' << number(u);
        out << ',' << number(p.period) << ',' << (p.stability.stable() ? 1 : 0) << ',' << p.stability.unstable
            << ',' << p.label << ',' << number(p.arclength);
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

} // namespace bif::cont
