// bifscope-cli: the engine's first client. Dispatches to one subcommand per file.
#include "cli_commands.h"

#include <csignal>
#include <cstdlib>
#include <iostream>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <string>
#include <vector>

namespace {

constexpr const char* usage_text = R"(usage: bifscope-cli <command> [options]

commands:
  check MODEL.ode                  print the model's diagnostics and a one-line summary
  codegen MODEL.ode [--float] [--type-name NAME]
                                   print the generated C++/CUDA source of the model
  run STUDY.json [--backend auto|cpu|cuda] [--gpus 0,1] [--out result.csv] [--threads N] [--check] [--quiet]
                                   run a study (resources/studies/ has examples): progress on
                                   stderr, the result as CSV to --out (- for stdout;
                                   a device or FIFO is written in place) or stdout; --check only
                                   checks the study; --gpus: the GPUs a CUDA run uses (default
                                   all); Ctrl-C stops the run and writes nothing
  run EQUILIBRIUM_STUDY.json [--out result.csv] [--check] [--quiet]
                                   a study of kind "equilibria", "continuation", "curves",
                                   "orbit_continuation" or "orbit_curves" (equilibria, their
                                   branches with LP, BP, H points, curves of LP and H in two
                                   parameters; a periodic orbit's branch with LP, PD, NS points,
                                   their curves in two parameters): runs on the CPU
  run MODEL.ode [--out output.dat] [--check] [--quiet]
                                   run the model as `xppaut MODEL.ode -silent` does (its @ options)
  plot STUDY.json --out figure.png|figure.svg [--size WxH] [--backend auto|cpu|cuda] [--quantity NAME]
                                   run a study and draw the figure the app shows for it (bifurcation
                                   diagrams, maps, basins); only in builds with the GUI libraries
  help                             print this text

exit status:
  0    success (systems that failed numerically are marked in the result's status column)
  1    the model or the study has errors
  2    bad command line
  3    a file could not be read or written
  4    the run could not be done (no backend for it, a compiler or GPU failure)
  130  interrupted by Ctrl-C or SIGTERM; no result written
)";

// glibc gives every thread that allocates an arena of its own, up to 8 per core, and keeps what is
// freed there: a streamed run's threads (lanes, blocks at once, the writer, the axis fillers) then
// held 900-1100 MB for the 10^8-system map, against 590-650 MB with two arenas, which also ran it
// faster (1.42-1.44 s against 1.64-1.70 s on an H200; tests/bench/README.md). Must come
// before any thread starts; MALLOC_ARENA_MAX in the environment still wins.
void limit_malloc_arenas() {
#if defined(__GLIBC__)
    if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 2);
#endif
}

} // namespace

int main(int argc, char** argv) {
    limit_malloc_arenas();
    // A closed pipe is a write error with its reason (EPIPE, exit 3), not a silent death by SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        (args.empty() ? std::cerr : std::cout) << usage_text;
        return args.empty() ? bif::cli::Usage : bif::cli::Success;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    try {
        if (command == "check") return bif::cli::run_check(args, std::cout, std::cerr);
        if (command == "codegen") return bif::cli::run_codegen(args, std::cout, std::cerr);
        if (command == "run") return bif::cli::run_study(args, std::cout, std::cerr);
#ifdef BIFSCOPE_HAVE_PLOT
        if (command == "plot") return bif::cli::run_plot(args, std::cout, std::cerr);
#endif
    } catch (const std::exception& e) {
        std::cerr << "bifscope-cli: " << e.what() << "\n";
        return bif::cli::IoFailure;
    }
    std::cerr << "bifscope-cli: unknown command '" << command << "'\n" << usage_text;
    return bif::cli::Usage;
}
