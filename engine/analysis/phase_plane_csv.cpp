#include "engine/analysis/phase_plane_csv.h"

#include <cmath>
#include <cstdio>

namespace bif::analysis {

namespace {

std::string number(double v, const char* format = "%.17g") {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

// CSV quoting for names that could hold a comma or a quote.
std::string quoted(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

void write_row(std::ostream& out, const std::string& curve, std::size_t index, const std::string& t,
               PlanePoint p, const std::string& note) {
    out << quoted(curve) << ',' << index << ',' << t << ',' << number(p.x) << ',' << number(p.y) << ','
        << quoted(note) << '\n';
}

} // namespace

std::string describe_equilibrium(const Equilibrium& e) {
    std::string text = std::string(name_of(e.type)) + ", eigenvalues ";
    const auto& l = e.eigenvalues;
    if (l[0].imag() != 0.0)
        return text + number(l[0].real(), "%.4g") + " +- " + number(std::abs(l[0].imag()), "%.4g") + "i";
    return text + number(l[0].real(), "%.4g") + " and " + number(l[1].real(), "%.4g");
}

void write_phase_plane_csv(std::ostream& out, const std::string& x_name, const std::string& y_name,
                           const PhasePortrait& portrait, const std::vector<PlanarTrajectory>& trajectories) {
    out << "curve,index,t," << quoted(x_name) << ',' << quoted(y_name) << ",note\n";
    const std::string names[2] = {x_name, y_name};
    for (int k = 0; k < 2; ++k) {
        const std::string curve = "nullcline " + names[k] + "' = 0";
        for (std::size_t i = 0; i < portrait.nullclines[k].size(); ++i)
            for (const PlanePoint& p : portrait.nullclines[k][i])
                write_row(out, curve, i, "", p, "");
    }
    for (std::size_t i = 0; i < trajectories.size(); ++i)
        for (std::size_t j = 0; j < trajectories[i].points.size(); ++j)
            write_row(out, "trajectory", i, number(trajectories[i].t[j]), trajectories[i].points[j], "");
    for (std::size_t i = 0; i < portrait.equilibria.size(); ++i)
        write_row(out, "equilibrium", i, "", portrait.equilibria[i].at,
                  describe_equilibrium(portrait.equilibria[i]));
}

} // namespace bif::analysis
