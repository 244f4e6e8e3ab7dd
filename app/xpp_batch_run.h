// One integration of XPPAUT's batch mode (`xppaut MODEL.ode -silent`) on the engine: the model's `@`
// options read as XPPAUT 6.11 reads them, the trajectory run as a Bifscope trajectory study, and
// the rows XPPAUT would store (t, the states, the aux quantities). app/cli_xpp_batch.cpp strings
// such runs together for `set` blocks and range integration.
#pragma once

#include "engine/model/model.h"
#include "engine/study/result.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace bif::cli {

// XPPAUT's range integration (`@ range=1, rangeover=a, rangestep=20, rangelow=0, rangehigh=1,
// rangereset=yes, rangeoldic=yes`), with its defaults: the first state variable from 0 to 1 in 20
// steps, every run in a file of its own, every run from the initial values.
struct RangeSettings {
    std::string over;
    long steps = 20;
    double low = 0.0;
    double high = 1.0;
    bool reset = true;  // each run's rows in OUT.i (i = 0..steps) and no OUT; else all rows in OUT
    bool old_ic = true; // each run from the initial values; else from where the previous one ended
};

// What XPPAUT 6.11 reads for a batch run, with its defaults.
struct BatchSettings {
    double t0 = 0.0;
    double total = 20.0;
    double dt = 0.05;
    double trans = 0.0;
    double bound = 100.0;
    long njmp = 1;
    long maxstor = 5000;
    // Fixed-step methods (r e m a b y) store every NJMP steps; the adaptive ones store every DT
    // and 6.11 ignores NJMP for them (measured).
    bool fixed_step = true;
    double section_period = 0.0; // > 0: POIMAP=section, POIVAR=t: rows at t = k*POIPLN only
    std::string output = "output.dat";
    std::optional<RangeSettings> range;
};

std::optional<BatchSettings> read_batch_settings(const model::Model& m, std::ostream& err);

// The rows of one run, XPPAUT's way.
struct Rows {
    std::vector<std::vector<double>> values;
    std::string stop;    // why the rows end early (bound, storage); empty when they do not
    std::string failure; // a value that is NaN or infinite: a failed run, not a bound
    study::SystemStatus status = study::SystemStatus::Ok;
    double last_time = 0.0;         // the time of the last value computed
    std::vector<double> last_state; // the states there (a range run without old ICs goes on from them)
};

// Integrates `m` (its parameter values and initial states, which may differ from the file's: a
// set's, a range value's) and returns its rows; `stored` rows are already in the file (MAXSTOR
// counts them). Null when the run could not be set up or failed to run (said on err).
std::optional<Rows> run_batch_once(const model::Model& m, const std::string& model_path,
                                   const BatchSettings& s, std::size_t stored, std::ostream& err);

// XPPAUT's output file: "%.8g " per value, a line per row.
int write_rows(const std::vector<std::vector<double>>& rows, const std::string& path, std::ostream& err);

} // namespace bif::cli
