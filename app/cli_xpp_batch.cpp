#include "cli_xpp_batch.h"

#include "cli_commands.h"
#include "cli_paths.h"
#include "engine/model/input_file.h"
#include "engine/model/parameter_set.h"
#include "engine/model/parse.h"
#include "engine/study/model_options.h"
#include "xpp_batch_run.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <ostream>

namespace bif::cli {

namespace {

constexpr const char* batch_usage =
    "usage: bifscope-cli run MODEL.ode [--out output.dat] [--check] [--quiet]\n";

struct BatchArguments {
    std::string model_path;
    std::string out_path; // empty: the model's @ output, else output.dat
    bool check_only = false;
    bool quiet = false;
};

std::optional<BatchArguments> parse_batch_arguments(const std::vector<std::string>& args, std::ostream& err) {
    BatchArguments a;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--out" && i + 1 < args.size()) {
            a.out_path = args[++i];
        } else if (args[i] == "--check") {
            a.check_only = true;
        } else if (args[i] == "--quiet") {
            a.quiet = true;
        } else if (a.model_path.empty() && !args[i].starts_with("--")) {
            a.model_path = args[i];
        } else {
            return err << batch_usage, std::nullopt;
        }
    }
    if (a.model_path.empty()) return err << batch_usage, std::nullopt;
    return a;
}

// Read as `run STUDY.json` reads its study: a regular file under the input size limit, else IoFailure.
std::optional<model::Model> load_model(const BatchArguments& a, int& status, std::ostream& err) {
    const model::InputFile file = model::read_input_file(a.model_path);
    if (!file.text) {
        err << "bifscope-cli: cannot read " << a.model_path << ": " << file.failure << "\n";
        status = IoFailure;
        return std::nullopt;
    }
    status = ModelErrors;
    model::ParseResult parsed = model::parse_model(*file.text, a.model_path);
    for (const auto& d : parsed.diagnostics)
        if (d.severity == model::Severity::Error || (!a.quiet && d.severity == model::Severity::Warning))
            err << d.format() << "\n";
    return std::move(parsed.model);
}

// Every way this run's rows will differ from XPPAUT's, at the line that causes it.
void warn_about_differences(const model::Model& m, std::ostream& err) {
    const model::Option* meth = m.option("meth");
    const char letter = meth && !meth->value.empty()
                            ? static_cast<char>(std::tolower(static_cast<unsigned char>(meth->value[0])))
                            : 'r';
    if (letter != 'r' && letter != 'd')
        for (const std::string& note : study::model_defaults(m).notes)
            if (note.starts_with("meth="))
                err << m.file << ":" << meth->where.line << ": warning: " << note
                    << "; its steps are not XPPAUT's, so the values differ by about the tolerance\n";
    for (const auto& e : m.events)
        err << m.file << ":" << e.where.line
            << ": warning: XPPAUT places this event by linear interpolation inside its step, Bifscope on "
               "the step's dense output: the rows after it differ by O(dt^2)\n";
    bool resets_parameter = false;
    for (const auto& e : m.events)
        for (const auto& r : e.resets)
            resets_parameter |= r.target == model::Reset::Target::Param;
    if (resets_parameter && !m.aux.empty())
        err << "bifscope-cli: warning: an event resets a parameter; the aux columns use the starting "
               "parameter values\n";
}

// What a run's rows say on stderr, and the exit status they give.
int report(const Rows& rows, const std::string& out_path, bool quiet, std::ostream& err) {
    if (!rows.stop.empty() && !quiet) err << "bifscope-cli: " << rows.stop << "; the rows stop there\n";
    if (rows.stop.empty() && rows.status == study::SystemStatus::StoppedByModel && !quiet)
        err << "bifscope-cli: an event stopped the run (arret); the rows stop there\n";
    if (!rows.failure.empty()) {
        err << "bifscope-cli: the run failed: " << rows.failure << "; " << out_path
            << " holds the rows before it\n";
        return RunFailed;
    }
    if (rows.stop.empty() && study::is_failure(rows.status)) {
        err << "bifscope-cli: the run failed after t = " << rows.last_time << ": "
            << study::name_of(rows.status) << "; " << out_path << " holds the rows before it\n";
        return RunFailed;
    }
    return Success;
}

// XPPAUT's range integration: a run per value of the range's parameter or initial value, each
// from the initial values (rangeoldic=yes) or from where the previous run ended. With rangereset=yes
// run i writes OUT.i and OUT is not written; else the runs follow each other in OUT. As in XPPAUT, a
// run that leaves BOUND ends quietly and the next one starts, and a NaN ends the range.
int run_range(model::Model m, const BatchArguments& a, const BatchSettings& s, const std::string& out_path,
              std::ostream& err) {
    const RangeSettings& r = *s.range;
    const int parameter = m.parameter_index(r.over);
    const int state = m.state_index(r.over);
    std::vector<double> initial;
    for (const auto& x : m.states)
        initial.push_back(x.initial);
    const double step = (r.high - r.low) / static_cast<double>(r.steps);
    std::vector<std::vector<double>> all;
    std::size_t ended_early = 0;
    int status = Success;
    for (long i = 0; i <= r.steps; ++i) {
        const double value = r.low + step * static_cast<double>(i);
        for (std::size_t j = 0; j < initial.size(); ++j)
            m.states[j].initial = initial[j];
        if (parameter >= 0) m.parameters[static_cast<std::size_t>(parameter)].value = value;
        if (state >= 0) m.states[static_cast<std::size_t>(state)].initial = value;
        std::optional<Rows> rows = run_batch_once(m, a.model_path, s, r.reset ? 0 : all.size(), err);
        if (!rows) return RunFailed;
        if (!rows->failure.empty()) {
            err << "bifscope-cli: the run for " << r.over << "=" << value << " failed: " << rows->failure
                << "; the range integration ends there\n";
            status = RunFailed;
            break;
        }
        if (r.reset) {
            if (const int w = write_rows(rows->values, out_path + "." + std::to_string(i), err)) return w;
        } else {
            all.insert(all.end(), rows->values.begin(), rows->values.end());
        }
        if (!rows->stop.empty() || rows->status != study::SystemStatus::Ok) ++ended_early;
        if (rows->stop.starts_with("storage full")) {
            // XPPAUT 6.11 crashes here ("malloc(): corrupted top size") and writes an empty file
            err << "bifscope-cli: warning: " << rows->stop << " in the run for " << r.over << "=" << value
                << "; the range integration ends there (XPPAUT 6.11 crashes)\n";
            break;
        }
        if (!r.old_ic && rows->last_state.size() == initial.size()) initial = rows->last_state;
    }
    if (ended_early > 0 && !a.quiet)
        err << "bifscope-cli: " << ended_early
            << " of the range's runs ended before total (bound or arret)\n";
    if (!r.reset)
        if (const int w = write_rows(all, out_path, err)) return w;
    return status;
}

// One model's batch run: its rows in out_path (empty: the model's @ output, else output.dat).
int run_model(const model::Model& m, const BatchArguments& a, std::string out_path, std::ostream& err) {
    const std::optional<BatchSettings> s = read_batch_settings(m, err);
    if (!s) return RunFailed;
    if (out_path.empty()) out_path = s->output;
    if (const int status = check_output_path(out_path, {a.model_path}, err)) return status;
    if (!a.quiet) warn_about_differences(m, err);
    if (s->range) return run_range(m, a, *s, out_path, err);
    const std::optional<Rows> rows = run_batch_once(m, a.model_path, *s, 0, err);
    if (!rows) return RunFailed;
    if (const int status = write_rows(rows->values, out_path, err)) return status;
    return report(*rows, out_path, a.quiet, err);
}
} // namespace

int run_xpp_batch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const std::optional<BatchArguments> a = parse_batch_arguments(args, err);
    if (!a) return Usage;
    int load_status = Success;
    const std::optional<model::Model> m = load_model(*a, load_status, err);
    if (!m) return load_status;
    if (a->check_only) {
        const std::optional<BatchSettings> s = read_batch_settings(*m, err);
        if (!s) return RunFailed;
        out << a->model_path << ": ok; batch run of " << m->num_states() << " states and " << m->aux.size()
            << " aux quantities from t = " << s->t0 << " for " << s->total << "\n";
        return Success;
    }
    if (m->sets.empty()) return run_model(*m, *a, a->out_path, err);
    // XPPAUT's batch mode with `set` blocks: a run per set, in file order, each with the values the
    // sets so far left, into SETNAME.dat (its -outfile, like --out, names one file for all of them);
    // no output.dat.
    model::Model current = *m;
    int status = Success;
    for (const model::ParameterSet& set : m->sets) {
        for (const std::string& name : model::apply_parameter_set(current, set))
            if (!a->quiet)
                err << m->file << ":" << set.where.line << ": warning: set " << set.name << ": " << name
                    << " is no parameter, state variable or option; XPPAUT ignores it, and so does "
                       "Bifscope\n";
        const int s = run_model(current, *a, a->out_path.empty() ? set.name + ".dat" : a->out_path, err);
        status = std::max(status, s);
    }
    return status;
}

} // namespace bif::cli
