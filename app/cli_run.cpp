// `bifscope-cli run STUDY.json [--backend auto|cpu|cuda] [--gpus 0,1] [--out result.csv|result.h5]
// [--compress] [--threads N] [--check] [--quiet]`: checks the study, runs it as a job with progress on
// stderr (--gpus: the GPUs a CUDA run uses, overriding the study's "gpus" key), writes
// the result as CSV to stdout, or to --out: CSV, or HDF5 when it ends in .h5 or .hdf5 (--compress:
// deflate). An --out that names an input of the run or cannot be created is refused before the run.
// With --out, the run streams: blocks of systems are written as they finish and dropped
// (cli_streamed_output.h), so host memory stays bounded however many systems the study has.
// Ctrl-C cancels the job and exits with 130 without writing a result; a second Ctrl-C kills at once.
// Under `mpirun -n R` (R > 1, in builds with MPI) the run is spread over the ranks (mpi/distributed_run.h):
// the same output, messages from rank 0 only. --block-systems N sets the systems per streamed block
// (and per block handed to a rank); --block-timeout S how long a rank may hold one before it goes to
// another rank.
#include "cli_commands.h"
#include "cli_equilibria.h"
#include "cli_paths.h"
#include "cli_streamed_output.h"
#include "cli_study.h"
#include "cli_xpp_batch.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/model/input_file.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result_csv.h"
#include "engine/study/result_hdf5.h"
#include "engine/study/study_json.h"
#ifdef BIFSCOPE_HAVE_MPI
#include "engine/jobs/result_merge.h"
#include "mpi/distributed_run.h"
#endif

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace bif::cli {

namespace {

constexpr const char* run_usage =
    "usage: bifscope-cli run STUDY.json [--backend auto|cpu|cuda] [--gpus 0,1] [--out result.csv|result.h5] "
    "[--compress] [--threads N] [--block-systems N] [--block-timeout S] [--check] [--quiet]\n";

volatile std::sig_atomic_t interrupted = 0;

void on_interrupt(int signal) {
    interrupted = signal;
    // A second Ctrl-C ends the process at once.
    std::signal(SIGINT, SIG_DFL);
}

struct RunArguments {
    std::string study_path;
    std::optional<study::BackendChoice> backend;
    std::optional<std::vector<int>> gpus;
    std::string out_path;
    unsigned threads = 0;
    std::size_t block_systems = 0;
    unsigned block_timeout_s = 600;
    bool check_only = false;
    bool quiet = false;
    bool compress = false;
};

// A whole number of at most `digits` digits (no sign, no spaces).
std::optional<std::size_t> parse_whole(const std::string& text, std::size_t digits) {
    if (text.empty() || text.size() > digits || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return static_cast<std::size_t>(std::stoull(text));
}

std::optional<unsigned> parse_threads(const std::string& text) {
    const auto n = parse_whole(text, 6);
    return n ? std::optional<unsigned>(static_cast<unsigned>(*n)) : std::nullopt;
}

// "0,1": GPU ordinals.
std::optional<std::vector<int>> parse_gpus(const std::string& text) {
    std::vector<int> gpus;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        const auto n = parse_threads(item);
        if (!n || *n > 1023) return std::nullopt;
        gpus.push_back(int(*n));
    }
    if (gpus.empty()) return std::nullopt;
    return gpus;
}

std::optional<RunArguments> parse_run_arguments(const std::vector<std::string>& args, std::ostream& err) {
    RunArguments a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const bool has_value = i + 1 < args.size();
        if (arg == "--backend" && has_value) {
            a.backend = parse_backend_choice(args[++i]);
            if (!a.backend)
                return err << "bifscope-cli: --backend takes auto, cpu or cuda, got '" << args[i] << "'\n",
                       std::nullopt;
        } else if (arg == "--gpus" && has_value) {
            a.gpus = parse_gpus(args[++i]);
            if (!a.gpus)
                return err << "bifscope-cli: --gpus takes GPU numbers like 0,1, got '" << args[i] << "'\n",
                       std::nullopt;
        } else if (arg == "--out" && has_value) {
            a.out_path = args[++i];
        } else if (arg == "--threads" && has_value) {
            const auto n = parse_threads(args[++i]);
            if (!n)
                return err << "bifscope-cli: --threads takes a whole number, got '" << args[i] << "'\n",
                       std::nullopt;
            a.threads = *n;
        } else if ((arg == "--block-systems" || arg == "--block-timeout") && has_value) {
            // a block may hold billions of systems; a timeout fits in 6 digits (over 11 days)
            const auto n = parse_whole(args[++i], arg == "--block-systems" ? 12 : 6);
            if (!n || *n == 0)
                return err << "bifscope-cli: " << arg << " takes a positive whole number, got '" << args[i]
                           << "'\n",
                       std::nullopt;
            if (arg == "--block-systems")
                a.block_systems = *n;
            else
                a.block_timeout_s = static_cast<unsigned>(*n);
        } else if (arg == "--check") {
            a.check_only = true;
        } else if (arg == "--quiet") {
            a.quiet = true;
        } else if (arg == "--compress") {
            a.compress = true;
        } else if (a.study_path.empty() && !arg.starts_with("--")) {
            a.study_path = arg;
        } else {
            return err << run_usage, std::nullopt;
        }
    }
    if (a.study_path.empty()) return err << run_usage, std::nullopt;
    return a;
}

// On a terminal one line rewritten in place; otherwise a line per tenth.
class ProgressPrinter {
  public:
    explicit ProgressPrinter(std::ostream& err) : err_(err), terminal_(::isatty(STDERR_FILENO)) {}
    void operator()(const study::Progress& p) {
        const int percent = static_cast<int>(p.fraction * 100.0);
        if (!terminal_ && percent / 10 == last_tenth_ && p.phase == last_phase_) return;
        last_tenth_ = percent / 10;
        last_phase_ = p.phase;
        char line[160];
        std::snprintf(line, sizeof line, "[%3d%%] %zu/%zu systems, %s, %.1f s", percent, p.systems_done,
                      p.systems_total, p.phase.c_str(), p.elapsed_seconds);
        err_ << (terminal_ ? "\r" : "") << line << (terminal_ ? "\x1b[K" : "\n") << std::flush;
        wrote_in_place_ = terminal_;
    }
    void end_line() {
        if (wrote_in_place_) err_ << "\n";
        wrote_in_place_ = false;
    }

  private:
    std::ostream& err_;
    bool terminal_;
    int last_tenth_ = -1;
    std::string last_phase_;
    bool wrote_in_place_ = false;
};

std::string describe(const study::ResolvedStudy& s) {
    std::ostringstream text;
    text << study::name_of(s.study.analysis) << ", " << s.system_count()
         << (s.system_count() == 1 ? " system" : " systems") << ", " << s.model->num_states() << " states, "
         << study::name_of(s.study.solver.method);
    return text.str();
}

// Waits for the job, cancelling it on Ctrl-C or SIGTERM.
void wait_interruptible(jobs::Job& job, std::ostream& err) {
    while (!job.wait_for(std::chrono::milliseconds(50))) {
        if (interrupted && !job.cancel_requested()) {
            err << "\nbifscope-cli: interrupted; stopping the run\n";
            job.cancel();
        }
    }
}

void print_summary(const study::ResultSummary& r, std::ostream& err) {
    for (const auto& note : r.info.notes)
        err << "bifscope-cli: note: " << note << "\n";
    for (const auto& warning : r.info.warnings)
        err << "bifscope-cli: warning: " << warning << "\n";
    err << r.system_count << " systems in " << r.info.total_seconds << " s (" << r.info.backend << ", "
        << study::name_of(r.info.code_path) << ", "
        << (r.info.precision == codegen::Precision::Float ? "float" : "double") << "); " << r.failed
        << " failed\n";
}

// The files the run reads: the study and, when it names one, its model file.
std::vector<std::string> input_files(const RunArguments& a, const study::Study& s, const std::string& base) {
    std::vector<std::string> inputs{a.study_path};
    if (!s.model.path.empty()) {
        std::filesystem::path model(s.model.path);
        if (model.is_relative() && !base.empty()) model = std::filesystem::path(base) / model;
        inputs.push_back(model.string());
    }
    return inputs;
}

// Refuses an output that would overwrite an input (also through the temporary file written first)
// or that cannot be created, before any work is done; returns the exit status, 0 when fine.
int check_output(const std::string& out_path, const std::vector<std::string>& inputs, std::ostream& err) {
    for (const std::string& target : {out_path, partial_path(out_path)}) {
        if (const std::string input = input_named_by(target, inputs); !input.empty()) {
            err << "bifscope-cli: refusing to write the result to " << target << ": it is " << input
                << ", an input of this run\n";
            return Usage;
        }
    }
    if (const std::string why = why_output_cannot_be_created(out_path); !why.empty()) {
        err << "bifscope-cli: cannot write " << out_path << ": " << why << "\n";
        return IoFailure;
    }
    return Success;
}

// The GPUs a CUDA run takes: `gpus` (empty: all), of which this process takes `share`.
void choose_gpus(LoadedStudy& loaded, const std::vector<int>& gpus, study::GpuShare share) {
    auto chosen = std::make_shared<study::ResolvedStudy>(*loaded.resolved);
    chosen->study.gpus = gpus;
    chosen->study.gpu_share = share;
    loaded.resolved = std::move(chosen);
}

int run_job(std::shared_ptr<const study::ResolvedStudy> resolved, const RunArguments& a, std::ostream& out,
            std::ostream& err) {
    const jobs::BackendRegistry registry = jobs::installed_backends();
    if (registry.backends().empty()) {
        err << "bifscope-cli: the study is valid, but this build has no backend to run it\n";
        return RunFailed;
    }
    const std::string study_json = study::write_study_json(resolved->study);
    std::unique_ptr<StreamedOutput> streamed;
    if (!a.out_path.empty()) {
        try {
            streamed = std::make_unique<StreamedOutput>(a.out_path, resolved->system_count(),
                                                        resolved->study.analysis, study_json,
                                                        study::Hdf5Options{a.compress ? 4 : 0});
        } catch (const std::exception& e) {
            err << "bifscope-cli: cannot write " << a.out_path << ": " << e.what() << "\n";
            return IoFailure;
        }
    }
    ProgressPrinter printer(err);
    jobs::JobOptions options;
    if (streamed) {
        options.keep_result = false;
        options.on_block = [&streamed](std::shared_ptr<const jobs::ResultBlock> block) {
            streamed->push(std::move(block));
        };
    }
    options.backend = a.backend;
    options.threads = a.threads;
    options.stream_block_systems = a.block_systems;
    if (!a.quiet) options.on_progress = [&printer](const study::Progress& p) { printer(p); };
    interrupted = 0;
    auto previous_int = std::signal(SIGINT, on_interrupt);
    auto previous_term = std::signal(SIGTERM, on_interrupt);
    auto job = jobs::submit(registry, resolved, options);
    wait_interruptible(*job, err);
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
    printer.end_line();
    switch (job->state()) {
    case jobs::JobState::Failed:
        err << "bifscope-cli: the run failed: " << job->failure() << "\n";
        return RunFailed;
    case jobs::JobState::Cancelled:
        err << "bifscope-cli: interrupted; no result written\n";
        return Interrupted;
    default:
        break;
    }
    const auto result = job->result();
    if (!streamed) {
        if (!a.quiet) print_summary(study::summarize(*result), err);
        study::write_result_csv(out, *result, study_json);
        return out ? Success : IoFailure;
    }
    try {
        streamed->finish(result->info);
    } catch (const std::exception& e) {
        err << "bifscope-cli: cannot write " << a.out_path << ": " << e.what() << "\n";
        return IoFailure;
    }
    if (!a.quiet) print_summary(streamed->summary(), err);
    return Success;
}

#ifdef BIFSCOPE_HAVE_MPI
// Rank 0's part once every rank loaded the study: the output, the hand-out loop, the summary.
int coordinate_run(mpi::Session& session, const LoadedStudy& loaded, const RunArguments& a,
                   std::unique_ptr<StreamedOutput> streamed, std::ostream& out, std::ostream& err) {
    ProgressPrinter printer(err);
    mpi::DistributedOptions options;
    options.backend = a.backend;
    options.threads = a.threads;
    options.block_systems = a.block_systems;
    options.block_timeout = std::chrono::seconds(a.block_timeout_s);
    if (!a.quiet) options.on_progress = [&printer](const study::Progress& p) { printer(p); };
    // Without --out the blocks are assembled and written to stdout at the end.
    study::Result whole = streamed ? study::Result{} : study::allocate_result(*loaded.resolved);
    auto sink = [&](std::shared_ptr<const jobs::ResultBlock> block) {
        if (streamed) return streamed->push(std::move(block));
        jobs::scatter_block(*block->result, block->systems, whole);
    };
    interrupted = 0;
    auto previous_int = std::signal(SIGINT, on_interrupt);
    auto previous_term = std::signal(SIGTERM, on_interrupt);
    const auto start = std::chrono::steady_clock::now();
    mpi::DistributedOutcome outcome =
        mpi::coordinate(session, loaded.resolved, options, sink, [] { return interrupted != 0; });
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
    printer.end_line();
    outcome.info.total_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int status = Success;
    if (outcome.interrupted) {
        err << "bifscope-cli: stopped by " << (interrupted == SIGTERM ? "SIGTERM" : "Ctrl-C")
            << (interrupted == SIGTERM ? " (under mpirun: a rank ended, and mpirun's message names it)" : "")
            << "; no result written\n";
        status = Interrupted;
    } else if (!outcome.succeeded) {
        err << "bifscope-cli: the run failed: " << outcome.failure << "\n";
        status = RunFailed;
    } else if (streamed) {
        try {
            streamed->finish(outcome.info);
            if (!a.quiet) print_summary(streamed->summary(), err);
        } catch (const std::exception& e) {
            err << "bifscope-cli: cannot write " << a.out_path << ": " << e.what() << "\n";
            status = IoFailure;
        }
    } else {
        whole.info = outcome.info;
        if (!a.quiet) print_summary(study::summarize(whole), err);
        study::write_result_csv(out, whole, study::write_study_json(loaded.resolved->study));
        status = out ? Success : IoFailure;
    }
    for (const auto& message : outcome.messages)
        if (!a.quiet || outcome.must_abort) err << "bifscope-cli: " << message << "\n";
    if (outcome.must_abort) {
        streamed.reset(); // drops an unfinished output before the abort ends this process
        out.flush();
        err.flush();
        session.abort_all(status == Success ? RunFailed : status);
    }
    return status;
}

// `mpirun -n R bifscope-cli run ...`: every rank loads the study; rank 0 checks the output and
// coordinates, the others serve. Any rank's failure before the run ends every rank's run.
int run_distributed(const RunArguments& a, std::ostream& out, std::ostream& err) {
    mpi::Session session;
    const bool coordinator = session.rank() == 0;
    std::ostringstream worker_messages;
    std::ostream& say = coordinator ? err : worker_messages;
    LoadedStudy loaded;
    int status = load_resolved_study(a.study_path, loaded, say);
    std::unique_ptr<StreamedOutput> streamed;
    if (status == Success && coordinator && !a.check_only && !a.out_path.empty()) {
        if (is_hdf5_path(a.out_path) && !study::hdf5_output_available()) {
            err << "bifscope-cli: cannot write " << a.out_path
                << ": this build has no HDF5 output, use .csv\n";
            status = Usage;
        } else {
            status = check_output(a.out_path, input_files(a, loaded.study, loaded.base_directory), err);
        }
        if (status == Success) {
            try {
                streamed = std::make_unique<StreamedOutput>(
                    a.out_path, loaded.resolved->system_count(), loaded.resolved->study.analysis,
                    study::write_study_json(loaded.resolved->study), study::Hdf5Options{a.compress ? 4 : 0});
            } catch (const std::exception& e) {
                err << "bifscope-cli: cannot write " << a.out_path << ": " << e.what() << "\n";
                status = IoFailure;
            }
        }
    }
    // the ranks of one node share its GPUs (or those --gpus names) rather than each taking all
    if (status == Success)
        choose_gpus(loaded, a.gpus.value_or(loaded.resolved->study.gpus),
                    {session.node_rank(), session.node_size()});
    int failing_rank = 0;
    const int worst = session.highest_status(status, failing_rank);
    if (worst != Success) {
        if (coordinator && failing_rank != 0)
            err << "bifscope-cli: rank " << failing_rank << " could not load " << a.study_path
                << " (every rank needs it at the same path)\n";
        return worst;
    }
    if (a.check_only) {
        if (coordinator) out << a.study_path << ": ok; " << describe(*loaded.resolved) << "\n";
        return Success;
    }
    if (coordinator) return coordinate_run(session, loaded, a, std::move(streamed), out, err);
    mpi::DistributedOptions options;
    options.backend = a.backend;
    options.threads = a.threads;
    const mpi::DistributedOutcome served = mpi::serve(session, loaded.resolved, options);
    return served.succeeded ? Success : RunFailed;
}
#endif

} // namespace

int run_study(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    // An .ode file where the study goes: XPPAUT's batch mode (cli_xpp_batch.h).
    for (std::size_t i = 0; i < args.size();
         i += args[i] == "--backend" || args[i] == "--gpus" || args[i] == "--out" || args[i] == "--threads" ||
                      args[i] == "--block-systems" || args[i] == "--block-timeout"
                  ? 2
                  : 1)
        if (!args[i].starts_with("--")) {
            if (args[i].ends_with(".ode")) return run_xpp_batch(args, out, err);
            break;
        }
    // An equilibrium or continuation study runs on the CPU, outside the job machinery.
    if (names_equilibrium_study(args)) return run_equilibrium_study(args, out, err);
    const std::optional<RunArguments> a = parse_run_arguments(args, err);
    if (!a) return Usage;
#ifdef BIFSCOPE_HAVE_MPI
    if (mpi::launched_as_several_processes()) return run_distributed(*a, out, err);
#endif
    LoadedStudy loaded;
    if (const int status = load_resolved_study(a->study_path, loaded, err); status != Success) return status;
    if (a->gpus) choose_gpus(loaded, *a->gpus, {});
    if (a->check_only) {
        out << a->study_path << ": ok; " << describe(*loaded.resolved) << "\n";
        return Success;
    }
    if (!a->out_path.empty()) {
        if (is_hdf5_path(a->out_path) && !study::hdf5_output_available()) {
            err << "bifscope-cli: cannot write " << a->out_path
                << ": this build has no HDF5 output (install libhdf5-dev and configure again), use .csv\n";
            return Usage;
        }
        if (const int status =
                check_output(a->out_path, input_files(*a, loaded.study, loaded.base_directory), err))
            return status;
    }
    return run_job(loaded.resolved, *a, out, err);
}

} // namespace bif::cli
