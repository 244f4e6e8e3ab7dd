#include "engine/continuation/orbit_csv.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>

namespace bif::cont {

std::string csv_number(double v) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    return std::string(text, end);
}

void write_orbit_columns_header(std::ostream& out, const std::vector<std::string>& unknown_names,
                                std::size_t multipliers) {
    for (const std::string& name : unknown_names)
        out << ',' << name;
    out << ",period,stable,unstable,label,arclength";
    for (std::size_t k = 1; k <= multipliers; ++k)
        out << ",mu_abs_" << k << ",mu_re_" << k << ",mu_im_" << k;
}

void write_orbit_columns(std::ostream& out, const std::vector<double>& unknowns, double period,
                         const OrbitStability& stability, const std::string& label, double arclength,
                         std::size_t multipliers) {
    for (double u : unknowns)
        out << ',' << csv_number(u);
    out << ',' << csv_number(period) << ',' << (stability.stable() ? 1 : 0) << ',' << stability.unstable
        << ',' << label << ',' << csv_number(arclength);
    for (std::size_t k = 0; k < multipliers; ++k) {
        if (k < stability.multipliers.size()) {
            const FloquetMultiplier& m = stability.multipliers[k];
            out << ',' << csv_number(std::exp(m.log_modulus)) << ',' << csv_number(m.value.real()) << ','
                << csv_number(m.value.imag());
        } else {
            out << ",,,";
        }
    }
}

void write_orbit_branch_csv(std::ostream& out, const OrbitBranch& branch, const std::string& parameter_name,
                            const std::vector<std::string>& unknown_names) {
    std::size_t mu = 0;
    for (const OrbitBranchPoint& p : branch.points)
        mu = std::max(mu, p.stability.multipliers.size());
    out << parameter_name;
    write_orbit_columns_header(out, unknown_names, mu);
    out << '\n';
    for (const OrbitBranchPoint& p : branch.points) {
        out << csv_number(p.parameter);
        write_orbit_columns(out, p.unknowns, p.period, p.stability, p.label, p.arclength, mu);
        out << '\n';
    }
}

} // namespace bif::cont
