// `bifscope-cli run MODEL.ode [--out FILE] [--check] [--quiet]`: XPPAUT's batch mode (`xppaut MODEL.ode
// -silent`) on the engine, so that scripts written around XPPAUT's output.dat can switch over unchanged.
//
// The model's `@` options drive the run as they drive XPPAUT 6.11: T0, TOTAL, DT, NJMP, TRANS, METH,
// TOL, ATOL, DTMIN, DTMAX, BOUND, MAXSTOR, OUTPUT and the stroboscopic Poincaré map (POIMAP=section,
// POIVAR=t, POIPLN). The file has XPPAUT's columns: t, the states, then the aux quantities, in file
// order, blank-separated, 8 significant digits, one row per NJMP steps from T0+TRANS on. A model
// with `set` blocks gives SETNAME.dat per set (the sets applied in file order, on top of each
// other) and no output.dat; `@ range=1` runs it once per value of RANGEOVER (xpp_batch_run.h), as
// XPPAUT 6.11 does in its batch mode. An event with `out_put` adds a row at each firing, one with
// `arret` ends the rows before the step it fired in.
//
// Where it differs from XPPAUT, on purpose: values are computed and printed in double (XPPAUT stores
// floats), event times are located on the step's dense output (XPPAUT interpolates linearly), section
// points are sampled at exact times, and a run that fails numerically says so on stderr and exits
// with status 4 after writing the rows it computed (XPPAUT writes them without a word).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cli {

int run_xpp_batch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace bif::cli
