#include "xpp_batch_run.h"

#include "cli_paths.h"
#include "engine/jobs/installed_backends.h"
#include "engine/jobs/job.h"
#include "engine/study/model_options.h"
#include "engine/study/resolved_study.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>

namespace bif::cli {

namespace {

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

// XPPAUT's yes/no options: yes when the value starts with y.
bool option_yes(const model::Model& m, const char* name, bool fallback) {
    const model::Option* o = m.option(name);
    if (!o) return fallback;
    return !o->value.empty() && (o->value[0] == 'y' || o->value[0] == 'Y');
}

std::optional<RangeSettings> read_range(const model::Model& m, std::ostream& err) {
    if (std::lround(option_number(m, "range", 0.0)) == 0) return std::nullopt;
    RangeSettings r;
    const model::Option* over = m.option("rangeover");
    r.over = over ? over->value : (m.states.empty() ? "" : m.states[0].name);
    r.steps = std::lround(option_number(m, "rangestep", 20.0));
    r.low = option_number(m, "rangelow", r.low);
    r.high = option_number(m, "rangehigh", r.high);
    r.reset = option_yes(m, "rangereset", true);
    r.old_ic = option_yes(m, "rangeoldic", true);
    if (m.parameter_index(r.over) < 0 && m.state_index(r.over) < 0) {
        err << "bifscope-cli: " << m.file << ": rangeover=" << r.over
            << " is no parameter or state variable of the model\n";
        return std::nullopt;
    }
    if (r.steps < 1) {
        err << "bifscope-cli: " << m.file << ": rangestep=" << r.steps << " must be at least 1\n";
        return std::nullopt;
    }
    return r;
}

} // namespace

std::optional<BatchSettings> read_batch_settings(const model::Model& m, std::ostream& err) {
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
    if (m.option("range") && std::lround(option_number(m, "range", 0.0)) != 0) {
        s.range = read_range(m, err);
        if (!s.range) return std::nullopt;
    }
    return s;
}

namespace {

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
                                                    long maxstor, std::ostream& err) {
    study::Study st = study::study_defaults_from_model(m);
    st.model.path = std::filesystem::absolute(model_path).string();
    st.analysis = study::AnalysisKind::Trajectory;
    st.sweep.clear();
    // The values of this run (a set's, a range step's), which the file read again does not have.
    for (const auto& p : m.parameters)
        st.parameters.emplace_back(p.name, p.value);
    for (const auto& s : m.states)
        st.initial.emplace_back(s.name, s.initial);
    st.trajectory.record.clear(); // every state; aux quantities are evaluated here
    st.trajectory.times.clear();
    for (const Sample& s : samples)
        st.trajectory.times.push_back(s.t);
    st.trajectory.t_end = samples.back().t;
    st.trajectory.output_count = static_cast<int>(samples.size());
    // XPPAUT's out_put rows: no more than it can store
    for (const auto& e : m.events)
        if (e.output) st.trajectory.event_rows = static_cast<int>(maxstor);
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

Rows collect_rows(const study::ResolvedStudy& rs, const study::Result& r, const std::vector<Sample>& samples,
                  const BatchSettings& s, std::size_t stored) {
    Rows rows;
    rows.status = r.status.at(0);
    const std::vector<double> params = rs.parameter_slots(0);
    const std::size_t filled = r.points.rows_filled.empty() ? 0 : r.points.rows_filled[0];
    const std::size_t n = rs.model->num_states();
    std::size_t next = 0; // the next requested time; other rows are out_put rows at events
    for (std::size_t i = 0; i < filled; ++i) {
        std::vector<double> v = row_values(rs, r, i, params);
        rows.last_time = v[0];
        rows.last_state.assign(v.begin() + 1, v.begin() + 1 + static_cast<std::ptrdiff_t>(n));
        if (next >= samples.size() || v[0] != samples[next].t) {
            // XPPAUT stores an event's row whatever TRANS and BOUND say, while there is room
            if (static_cast<long>(stored + rows.values.size()) < s.maxstor)
                rows.values.push_back(std::move(v));
            continue;
        }
        const Sample& sample = samples[next++];
        char text[160];
        for (std::size_t c = 1; c < v.size(); ++c)
            if (!std::isfinite(v[c])) {
                std::snprintf(text, sizeof text, "column %zu is %g at t = %g", c + 1, v[c], v[0]);
                rows.failure = text;
                return rows;
            }
        if (sample.check)
            for (std::size_t c = 1; c < v.size(); ++c)
                if (std::fabs(v[c]) > s.bound) {
                    std::snprintf(text, sizeof text, "out of bounds (|value| > %g) at t = %g", s.bound, v[0]);
                    rows.stop = text;
                    return rows;
                }
        if (!sample.row || std::fabs(sample.clock) < s.trans) continue;
        if (static_cast<long>(stored + rows.values.size()) >= s.maxstor) {
            rows.stop = "storage full (maxstor=" + std::to_string(s.maxstor) + ")";
            return rows;
        }
        rows.values.push_back(std::move(v));
    }
    return rows;
}

// The compiler-free evaluator for runs it finishes in well under the time a native compile takes
// (about a second) and takes (up to 16 states); the natively compiled model (cached) for the others.
jobs::BackendRegistry backends_for(const model::Model& m, const BatchSettings& s) {
    const double work = (s.total / s.dt) * static_cast<double>(m.num_states() + m.aux.size() + 1);
    if (work > 2e6 || m.num_states() > 16) return jobs::installed_backends();
    jobs::BackendRegistry registry;
    if (auto evaluator = jobs::evaluator_stand_in()) {
        registry.add(std::move(evaluator));
        return registry;
    }
    return jobs::installed_backends();
}

std::shared_ptr<const study::Result> run_trajectory(std::shared_ptr<const study::ResolvedStudy> rs,
                                                    jobs::BackendRegistry backends, std::ostream& err) {
    jobs::JobOptions options;
    options.backend = study::BackendChoice::Cpu;
    options.threads = 1;
    auto job = jobs::submit(std::move(backends), rs, options);
    job->wait();
    if (job->state() == jobs::JobState::Failed) {
        err << "bifscope-cli: the run failed: " << job->failure() << "\n";
        return nullptr;
    }
    return job->result();
}

} // namespace

std::optional<Rows> run_batch_once(const model::Model& m, const std::string& model_path,
                                   const BatchSettings& s, std::size_t stored, std::ostream& err) {
    std::vector<Sample> samples = interval_ends(s);
    if (s.section_period > 0.0) samples = with_sections(samples, s.section_period);
    const auto rs = resolve(m, model_path, samples, s.dt, s.maxstor, err);
    if (!rs) return std::nullopt;
    const auto result = run_trajectory(rs, backends_for(m, s), err);
    if (!result) return std::nullopt;
    return collect_rows(*rs, *result, samples, s, stored);
}

int write_rows(const std::vector<std::vector<double>>& rows, const std::string& path, std::ostream& err) {
    return write_output(
        path,
        [&](std::ostream& file) {
            char number[32];
            for (const auto& row : rows) {
                for (double v : row) {
                    std::snprintf(number, sizeof number, "%.8g ", v);
                    file << number;
                }
                file << '\n';
            }
        },
        err);
}

} // namespace bif::cli
