// Runs bifscope-cli as a child process, as a user's shell would, and collects what it printed.
#pragma once

#include <string>
#include <vector>

namespace bif::test {

struct CliOutcome {
    int exit_status = -1; // -1 when it did not exit normally
    std::string out;
    std::string err;
};

// Runs the CLI with these arguments; when interrupt_after_ms >= 0, sends `signal` (SIGINT: as
// Ctrl-C does; SIGTERM: as kill and job schedulers do) after that many milliseconds. Kills it after
// timeout_s seconds.
CliOutcome run_cli(const std::vector<std::string>& args, int interrupt_after_ms = -1, int timeout_s = 120,
                   int signal = 2 /* SIGINT */);

} // namespace bif::test
