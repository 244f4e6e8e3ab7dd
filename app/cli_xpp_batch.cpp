#include "cli_xpp_batch.h"

#include "cli_commands.h"
#include "cli_paths.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/model/input_file.h"
#include "engine/model/parse.h"
#include "engine/study/model_options.h"
#include "engine/study/resolved_study.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// XPPAUT reads option values with atof: the leading number, 0 when there is none.
double option_number(const model::Model& m, const char* name, double fallback) {
    const model::Option* o = m.option(name);
    return o ? std::strtod(o->value.c_str(), nullptr) : fallback;
}

char method_letter(const model::Model& m) {
    const model::Option* o = m.option("meth");
    if (!o || o->value.empty()) return 'r';
    return static_cast<char>(std::tolower(static_cast<unsigned char>(o->value.front())));
}

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
};

std::optional<BatchSettings> read_settings(const model::Model& m, std::ostream& err) {
    BatchSettings s;
    s.t0 = option_number(m, "t0", s.t0);
    s.total = option_number(m, "total", s.total);
    s.dt = option_number(m, "dt", s.dt);
    s.trans = option_number(m, "trans", s.trans);
    s.bound = option_number(m, "bound", s.bound);
    s.njmp = std::max(1L, std::lround(option_number(m, "njmp", option_number(m, "nout", 1.0))));
    s.maxstor = std::max(1L, std::lround(option_number(m, "maxstor", 5000.0)));
    if (const model::Option* o = m.option("output")) s.output = o->value;
    const char meth = method_letter(m);
    s.fixed_step = std::string_view("remaby").find(meth) != std::string_view::npos;
    if (m.is_map()) { // one iterate per unit time: XPPAUT 6.11 ignores DT for a map (measured)
        s.dt = 1.0;
        s.fixed_step = true;
    }
    if (!(s.dt > 0.0) || !(s.total > 0.0)) {
        err << "bifscope-cli: " << m.file << ": batch runs need positive dt and total (got dt=" << s.dt
            << ", total=" << s.total << "); backwards integration is not supported\n";
        return std::nullopt;
    }
    if (const model::Option* map = m.option("poimap"); map && !map->value.empty()) {
        const model::Option* var = m.option("poivar");
        const bool stroboscopic = std::tolower(static_cast<unsigned char>(map->value[0])) == 's' && var &&
                                  (var->value == "t" || var->value == "T");
        s.section_period = option_number(m, "poipln", 0.0);
        if (!stroboscopic || !(s.section_period > 0.0)) {
            err << "bifscope-cli: " << m.file << ": batch runs support only POIMAP=section with POIVAR=t and "
                << "a positive POIPLN; remove the @ poimap option to write the whole trajectory\n";
            return std::nullopt;
        }
    }
    return s;
}

// One time the engine reports: a row of the file, a point where XPPAUT checks BOUND, or both.
struct Sample {
    double t = 0.0;
    double clock = 0.0; // XPPAUT's own time there (summed step by step), for the TRANS test
    bool row = false;
    bool check = false;
};

// XPPAUT takes int((TOTAL + DT/10) / DT) steps in ceil(steps / NJMP) intervals (integrate.c).
std::vector<Sample> interval_ends(const BatchSettings& s) {
    const long steps = static_cast<long>((s.total + 0.1 * s.dt) / s.dt);
    const long per_interval = s.fixed_step ? s.njmp : 1;
    const long intervals = (steps + per_interval - 1) / per_interval;
    std::vector<Sample> out;
    out.reserve(static_cast<std::size_t>(intervals) + 1);
    double clock = s.t0;
    out.push_back({s.t0, s.t0, true, false});
    for (long k = 1; k <= intervals; ++k) {
        const double t = s.t0 + static_cast<double>(k * per_interval) * s.dt;
        if (s.fixed_step)
            for (long j = 0; j < per_interval; ++j)
                clock += s.dt;
        else
            clock = t;
        out.push_back({t, clock, true, true});
    }
    return out;
}

// Stroboscopic map: XPPAUT stores a row at t = POIPLN*i when the interval that ends at `clock` passed
// that time, i.e. when clock mod POIPLN fell; Bifscope samples exactly there instead of interpolating.
std::vector<Sample> with_sections(const std::vector<Sample>& ends, double period) {
    std::vector<Sample> out;
    out.reserve(ends.size() + ends.size() / 8);
    out.push_back({ends[0].t, ends[0].clock, false, false});
    for (std::size_t k = 1; k < ends.size(); ++k) {
        Sample end = ends[k];
        end.row = false;
        const double before = std::fmod(std::fabs(ends[k - 1].clock), period);
        const double after = std::fmod(std::fabs(end.clock), period);
        if (after < before) {
            const double t = period * std::floor(std::fabs(end.clock) / period);
            if (t >= end.t) {
                end.row = true;
            } else if (t > out.back().t) {
                out.push_back({t, end.clock, true, false});
            } else {
                out.back().row = true;
            }
        }
        out.push_back(end);
    }
    return out;
}

std::shared_ptr<const study::ResolvedStudy> resolve(const model::Model& m, const std::string& model_path,
                                                    const std::vector<Sample>& samples, double dt,
                                                    std::ostream& err) {
    study::Study st = study::study_defaults_from_model(m);
    st.model.path = std::filesystem::absolute(model_path).string();
    st.analysis = study::AnalysisKind::Trajectory;
    st.sweep.clear();
    st.trajectory.record.clear(); // every state; aux quantities are evaluated here
    st.trajectory.times.clear();
    for (const Sample& s : samples)
        st.trajectory.times.push_back(s.t);
    st.trajectory.t_end = samples.back().t;
    st.trajectory.output_count = static_cast<int>(samples.size());
    // XPPAUT's defaults where the model sets nothing (a study's own are stricter): RK4, DT 0.05.
    if (!m.option("meth") && !m.is_map()) st.solver.method = study::Method::Rk4;
    st.solver.initial_step = dt;
    // XPPAUT's tolerances where the model sets none (a study's own are stricter).
    if (!m.option("tol")) st.solver.rtol.all = 1e-3;
    if (!m.option("atol")) st.solver.atol.all = 1e-3;
    if (!m.option("dtmax")) st.solver.max_step = 1.0;
    st.backend = study::BackendChoice::Cpu;
    st.precision = study::PrecisionChoice::Double;
    const study::ResolveResult r = study::resolve_study(st, "");
    for (const auto& p : r.problems)
        err << m.file << ": " << p.format() << "\n";
    return r.resolved;
}

// The columns XPPAUT writes: t, the states, the aux quantities. Aux formulas are evaluated with the
// starting parameters (an event that resets a parameter is warned about in run_xpp_batch).
std::vector<double> row_values(const study::ResolvedStudy& rs, const study::Result& r, std::size_t i,
                               const std::vector<double>& params) {
    const model::Model& m = *rs.model;
    const std::size_t n = m.num_states();
    std::vector<double> v(1 + n + m.aux.size());
    for (std::size_t c = 0; c <= n; ++c)
        v[c] = r.points.value(0, i, c);
    for (std::size_t a = 0; a < m.aux.size(); ++a)
        v[1 + n + a] = m.pool.evaluate(m.aux[a].formula, v.data() + 1, params.data(), v[0]);
    return v;
}

struct Rows {
    std::vector<std::vector<double>> values;
    std::string stop;    // why the rows end early, XPPAUT's way (bound, storage); empty when they do not
    std::string failure; // a value that is NaN or infinite: a failed run, not a bound
};

Rows collect_rows(const study::ResolvedStudy& rs, const study::Result& r, const std::vector<Sample>& samples,
                  const BatchSettings& s) {
    Rows rows;
    const std::vector<double> params = rs.parameter_slots(0);
    const std::size_t filled = r.points.rows_filled.empty() ? 0 : r.points.rows_filled[0];
    for (std::size_t i = 0; i < filled && i < samples.size(); ++i) {
        std::vector<double> v = row_values(rs, r, i, params);
        char text[160];
        for (std::size_t c = 1; c < v.size(); ++c)
            if (!std::isfinite(v[c])) {
                std::snprintf(text, sizeof text, "column %zu is %g at t = %g", c + 1, v[c], v[0]);
                rows.failure = text;
                return rows;
            }
        if (samples[i].check)
            for (std::size_t c = 1; c < v.size(); ++c)
                if (std::fabs(v[c]) > s.bound) {
                    std::snprintf(text, sizeof text, "out of bounds (|value| > %g) at t = %g", s.bound, v[0]);
                    rows.stop = text;
                    return rows;
                }
        if (!samples[i].row || std::fabs(samples[i].clock) < s.trans) continue;
        if (static_cast<long>(rows.values.size()) >= s.maxstor) {
            rows.stop = "storage full (maxstor=" + std::to_string(s.maxstor) + ")";
            return rows;
        }
        rows.values.push_back(std::move(v));
    }
    return rows;
}

// XPPAUT's output.dat: "%.8g " per value, a line per row (through a temporary file when it is a
// regular file).
int write_rows(const Rows& rows, const std::string& path, std::ostream& err) {
    return write_output(
        path,
        [&](std::ostream& file) {
            char number[32];
            for (const auto& row : rows.values) {
                for (double v : row) {
                    std::snprintf(number, sizeof number, "%.8g ", v);
                    file << number;
                }
                file << '\n';
            }
        },
        err);
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

void warn_about_differences(const model::Model& m, std::ostream& err) {
    const char meth = method_letter(m);
    if (std::string_view("rq52").find(meth) == std::string_view::npos)
        for (const std::string& note : study::model_defaults(m).notes)
            if (note.starts_with("meth=")) err << "bifscope-cli: warning: " << note << "\n";
    bool resets_parameter = false;
    for (const auto& e : m.events)
        for (const auto& r : e.resets)
            resets_parameter |= r.target == model::Reset::Target::Param;
    if (resets_parameter && !m.aux.empty())
        err << "bifscope-cli: warning: an event resets a parameter; the aux columns use the starting "
               "parameter values\n";
}

std::shared_ptr<const study::Result> run_trajectory(std::shared_ptr<const study::ResolvedStudy> rs,
                                                    std::ostream& err) {
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cpu;
    options.threads = 1;
    auto job = jobs::submit(jobs::installed_backends(), rs, options);
    job->wait();
    if (job->state() == jobs::JobState::Failed) {
        err << "bifscope-cli: the run failed: " << job->failure() << "\n";
        return nullptr;
    }
    return job->result();
}

} // namespace

int run_xpp_batch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const std::optional<BatchArguments> a = parse_batch_arguments(args, err);
    if (!a) return Usage;
    int load_status = Success;
    const std::optional<model::Model> m = load_model(*a, load_status, err);
    if (!m) return load_status;
    const std::optional<BatchSettings> s = read_settings(*m, err);
    if (!s) return RunFailed;
    if (a->check_only) {
        out << a->model_path << ": ok; batch run of " << m->num_states() << " states and " << m->aux.size()
            << " aux quantities from t = " << s->t0 << " for " << s->total << "\n";
        return Success;
    }
    const std::string out_path = a->out_path.empty() ? s->output : a->out_path;
    if (const int status = check_output_path(out_path, {a->model_path}, err)) return status;
    if (!a->quiet) warn_about_differences(*m, err);

    std::vector<Sample> samples = interval_ends(*s);
    if (s->section_period > 0.0) samples = with_sections(samples, s->section_period);
    const auto rs = resolve(*m, a->model_path, samples, s->dt, err);
    if (!rs) return ModelErrors;
    const auto result = run_trajectory(rs, err);
    if (!result) return RunFailed;

    const Rows rows = collect_rows(*rs, *result, samples, *s);
    if (const int status = write_rows(rows, out_path, err)) return status;
    if (!rows.stop.empty() && !a->quiet) err << "bifscope-cli: " << rows.stop << "; the rows stop there\n";
    const study::SystemStatus status = result->status.at(0);
    if (rows.stop.empty() && status == study::SystemStatus::StoppedByModel && !a->quiet)
        err << "bifscope-cli: an event stopped the run (arret); the rows stop there\n";
    if (!rows.failure.empty()) {
        err << "bifscope-cli: the run failed: " << rows.failure << "; " << out_path
            << " holds the rows before it\n";
        return RunFailed;
    }
    if (rows.stop.empty() && study::is_failure(status)) {
        const auto& filled = result->points.rows_filled;
        const double last =
            filled.empty() || filled[0] == 0 ? s->t0 : result->points.value(0, filled[0] - 1, 0);
        err << "bifscope-cli: the run failed after t = " << last << ": " << study::name_of(status) << "; "
            << out_path << " holds the rows before it\n";
        return RunFailed;
    }
    return Success;
}

} // namespace bif::cli
