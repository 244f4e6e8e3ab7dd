// Readers for the files AUTO writes through XPPAUT (tests/reference/auto): NAME.ode.q, AUTO's
// fort.8 (every labelled solution in full), and NAME.ode.d, its fort.9 (diagnostics: eigenvalues
// and Floquet multipliers per point). The layout is AUTO's (AUTO-07p manual, "Output files"):
//   fort.8: per solution a header IBR NTOT ITP LAB NFPR ISW NTPL NAR NROWPR [NTST NCOL ICP...],
//   then NROWPR rows: NTPL rows of (t, U(1..NAR-1)), for periodic orbits the direction (ICP, RLDOT
//   and NTPL rows of UDOT), and last the parameters PAR(1..), seven a row.
//   fort.9: "BRANCH ib POINT ip  re im  re im" lines (continued on the next line for more than two
//   values) after "EIGENVALUES OF JACOBIAN" or "FLOQUET MULTIPLIERS".
#pragma once

#include <complex>
#include <string>
#include <vector>

namespace auto_output {

struct Solution {
    int branch = 0;
    int point = 0; // NTOT: the point's number on its branch
    int type = 0;  // ITP: 1 BP, 2 LP, 3 HB, 4 UZ, 5 LP (orbit), 6 BP (orbit), 7 PD, 8 TR, 9 EP
    int label = 0;
    std::vector<std::vector<double>> rows; // t, U(1..); one row for an equilibrium
    std::vector<double> parameters;        // PAR(1), PAR(2), ...; PAR(11) is a periodic orbit's period

    const std::vector<double>& start() const { return rows.front(); } // t = 0, then U
    double parameter(int k) const { return parameters.at(std::size_t(k - 1)); }
    double period() const { return parameter(11); }
};

// Every solution of a fort.8 file; throws std::runtime_error where the file is missing or malformed.
std::vector<Solution> read_solutions(const std::string& path);

// The special-point name of an AUTO type code, in Bifscope's labels (HB -> H, TR -> NS, the
// orbit codes 5 and 6 -> LP and BP); "" for regular points, EP, UZ and MX.
std::string special_label(int type);

// The eigenvalues (equilibria) or Floquet multipliers (periodic orbits) AUTO printed last for
// point `point` of branch `branch` (a located special point's final iterate), `count` values;
// throws std::runtime_error where there are none.
std::vector<std::complex<double>> read_spectrum(const std::string& path, int branch, int point, int count);

} // namespace auto_output
