// The subcommands of bifscope-cli. Each returns the process exit status:
//   0 success (systems that failed numerically are listed in the result's status column),
//   1 the model or study has errors, 2 bad command line, 3 input/output failure,
//   4 the run could not be done (no backend for it, a compiler or GPU failure),
//   130 interrupted (Ctrl-C or SIGTERM; no result written).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cli {

enum ExitStatus { Success = 0, ModelErrors = 1, Usage = 2, IoFailure = 3, RunFailed = 4, Interrupted = 130 };

int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_codegen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_study(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// Built only with the GUI libraries (BIFSCOPE_HAVE_PLOT): app/cli_plot.cpp.
int run_plot(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace bif::cli
