// `bifscope-cli run STUDY.json [--backend auto|cpu|cuda] [--out result.csv] [--threads N] [--check]
// [--quiet]`: checks the study, runs it as a job with progress on stderr, writes the result as CSV (to --out,
// else stdout). Ctrl-C cancels the job and exits with 130 without writing a result; a second Ctrl-C
// kills at once.
#include "cli_commands.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/study/resolved_study.h"
#include "engine/study/result_csv.h"
#include "engine/study/study_json.h"

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
    "usage: bifscope-cli run STUDY.json [--backend auto|cpu|cuda] [--out result.csv] [--threads N] [--check] "
    "[--quiet]\n";

volatile std::sig_atomic_t interrupted = 0;

void on_interrupt(int) {
    interrupted = 1;
    // A second Ctrl-C ends the process at once.
    std::signal(SIGINT, SIG_DFL);
}

struct RunArguments {
    std::string study_path;
    std::optional<study::BackendChoice> backend;
    std::string out_path;
    unsigned threads = 0;
    bool check_only = false;
    bool quiet = false;
};

std::optional<unsigned> parse_threads(const std::string& text) {
    if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return static_cast<unsigned>(std::stoul(text));
}

std::optional<RunArguments> parse_run_arguments(const std::vector<std::string>& args, std::ostream& err) {
    RunArguments a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        const bool has_value = i + 1 < args.size();
        if (arg == "--backend" && has_value) {
            const std::string& v = args[++i];
            if (v == "auto")
                a.backend = study::BackendChoice::Auto;
            else if (v == "cpu")
                a.backend = study::BackendChoice::Cpu;
            else if (v == "cuda")
                a.backend = study::BackendChoice::Cuda;
            else
                return err << "bifscope-cli: --backend takes auto, cpu or cuda, got '" << v << "'\n",
                       std::nullopt;
        } else if (arg == "--out" && has_value) {
            a.out_path = args[++i];
        } else if (arg == "--threads" && has_value) {
            const auto n = parse_threads(args[++i]);
            if (!n)
                return err << "bifscope-cli: --threads takes a whole number, got '" << args[i] << "'\n",
                       std::nullopt;
            a.threads = *n;
        } else if (arg == "--check") {
            a.check_only = true;
        } else if (arg == "--quiet") {
            a.quiet = true;
        } else if (a.study_path.empty() && !arg.starts_with("--")) {
            a.study_path = arg;
        } else {
            return err << run_usage, std::nullopt;
        }
    }
    if (a.study_path.empty()) return err << run_usage, std::nullopt;
    return a;
}

// Prints "STUDY.json: error: sweep[0].count: must be at least 1, got 0"; returns whether any was an error.
bool print_problems(const study::Problems& problems, const std::string& file, std::ostream& err) {
    for (const auto& p : problems)
        err << file << ": " << p.format() << "\n";
    return study::has_errors(problems);
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

void print_summary(const study::Result& r, std::ostream& err) {
    for (const auto& note : r.info.notes)
        err << "bifscope-cli: note: " << note << "\n";
    for (const auto& warning : r.info.warnings)
        err << "bifscope-cli: warning: " << warning << "\n";
    std::size_t failed = 0;
    for (auto s : r.status)
        failed += study::is_failure(s);
    err << r.system_count << " systems in " << r.info.total_seconds << " s (" << r.info.backend << ", "
        << study::name_of(r.info.code_path) << ", "
        << (r.info.precision == codegen::Precision::Float ? "float" : "double") << "); " << failed
        << " failed\n";
}

// Writes to a temporary file renamed at the end, so an interrupted write leaves no truncated result.
int write_result(const study::Result& r, const std::string& study_json, const std::string& out_path,
                 std::ostream& out, std::ostream& err) {
    if (out_path.empty()) {
        study::write_result_csv(out, r, study_json);
        return out ? Success : IoFailure;
    }
    const std::string temp = out_path + ".partial";
    {
        std::ofstream file(temp, std::ios::binary | std::ios::trunc);
        if (file) study::write_result_csv(file, r, study_json);
        if (!file) {
            err << "bifscope-cli: cannot write " << out_path << "\n";
            std::remove(temp.c_str());
            return IoFailure;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temp, out_path, ec);
    if (ec) {
        err << "bifscope-cli: cannot write " << out_path << ": " << ec.message() << "\n";
        return IoFailure;
    }
    return Success;
}

int run_job(std::shared_ptr<const study::ResolvedStudy> resolved, const RunArguments& a, std::ostream& out,
            std::ostream& err) {
    const jobs::BackendRegistry registry = jobs::installed_backends();
    if (registry.backends().empty()) {
        err << "bifscope-cli: the study is valid, but this build has no backend to run it\n";
        return RunFailed;
    }
    ProgressPrinter printer(err);
    jobs::JobOptions options;
    options.backend = a.backend;
    options.threads = a.threads;
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
    if (!a.quiet) print_summary(*result, err);
    return write_result(*result, study::write_study_json(resolved->study), a.out_path, out, err);
}

} // namespace

int run_study(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const std::optional<RunArguments> a = parse_run_arguments(args, err);
    if (!a) return Usage;
    std::ifstream in(a->study_path, std::ios::binary);
    if (!in) {
        err << "bifscope-cli: cannot read " << a->study_path << "\n";
        return IoFailure;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const study::StudyReadResult read = study::read_study_json(text.str());
    bool errors = print_problems(read.problems, a->study_path, err);
    if (!read.study) return ModelErrors;
    const std::string base = std::filesystem::path(a->study_path).parent_path().string();
    const study::ResolveResult resolved = study::resolve_study(*read.study, base);
    errors = print_problems(resolved.problems, a->study_path, err) || errors;
    if (errors || !resolved.resolved) return ModelErrors;
    if (a->check_only) {
        out << a->study_path << ": ok; " << describe(*resolved.resolved) << "\n";
        return Success;
    }
    return run_job(resolved.resolved, *a, out, err);
}

} // namespace bif::cli
