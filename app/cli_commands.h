// The subcommands of bifscope-cli. Each returns the process exit status:
//   0 success, 1 the model or study has errors, 2 bad command line, 3 input/output failure.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace bif::cli {

enum ExitStatus { Success = 0, ModelErrors = 1, Usage = 2, IoFailure = 3 };

int run_check(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_codegen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace bif::cli
