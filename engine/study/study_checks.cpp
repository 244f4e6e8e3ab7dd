#include "engine/study/study_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace bif::study {

namespace {

struct Checker {
    Problems& problems;

    void error(const std::string& path, const std::string& message) {
        problems.push_back({ProblemSeverity::Error, path, message});
    }
    void warning(const std::string& path, const std::string& message) {
        problems.push_back({ProblemSeverity::Warning, path, message});
    }
    static std::string number(double v) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6g", v);
        return buffer;
    }
    void positive(const std::string& path, double v) {
        if (!(v > 0.0)) error(path, "must be positive, got " + number(v));
    }
    void non_negative(const std::string& path, double v) {
        if (!(v >= 0.0)) error(path, "must not be negative, got " + number(v));
    }
    void at_least(const std::string& path, std::int64_t v, std::int64_t least) {
        if (v < least)
            error(path, "must be at least " + std::to_string(least) + ", got " + std::to_string(v));
    }
};

void check_model_source(const Study& s, Checker& c) {
    if (!s.model.path.empty() && !s.model.text.empty())
        c.error("model", "give the model's path or its text, not both");
    else if (s.model.path.empty() && s.model.text.empty())
        c.error("model", "missing model: give {\"path\": \"file.ode\"} or {\"text\": \"...\"}");
}

void check_axis(const SweepAxis& axis, const std::string& path, Checker& c) {
    const char* key = axis.target == SweepTarget::Parameter ? ".parameter" : ".initial";
    if (axis.name.empty()) c.error(path + key, "missing the name of what is swept");
    if (!std::isfinite(axis.from)) c.error(path + ".from", "must be a finite number");
    if (!std::isfinite(axis.to)) c.error(path + ".to", "must be a finite number");
    c.at_least(path + ".count", axis.count, 1);
    if (axis.scale == SweepScale::Log) {
        if (!(axis.from > 0.0))
            c.error(path + ".from", "a log sweep needs positive bounds, got " + Checker::number(axis.from));
        if (!(axis.to > 0.0))
            c.error(path + ".to", "a log sweep needs positive bounds, got " + Checker::number(axis.to));
    }
}

// How many sweep axes each analysis takes, and over what.
void check_axes_for_analysis(const Study& s, Checker& c) {
    const std::size_t n = s.sweep.size();
    const std::string got = ", got " + std::to_string(n) + (n == 1 ? " axis" : " axes");
    switch (s.analysis) {
    case AnalysisKind::Bifurcation:
        // a second axis gives continuation one chain per value: a hysteresis map
        if (s.bifurcation.continuation && n != 1 && n != 2)
            c.error("sweep", "a continuation sweeps one parameter, and optionally a second axis of "
                             "chains (a parameter or an initial value)" +
                                 got);
        else if (!s.bifurcation.continuation && n != 1)
            c.error("sweep", "a bifurcation diagram sweeps exactly one parameter" + got);
        else if (s.sweep[0].target != SweepTarget::Parameter)
            c.error("sweep[0]", "a bifurcation diagram sweeps a parameter, not an initial value");
        break;
    case AnalysisKind::Lyapunov:
        if (n > 2) c.error("sweep", "Lyapunov exponents are computed over at most two axes" + got);
        break;
    case AnalysisKind::ParameterMap:
        if (n != 2) c.error("sweep", "a two-parameter map sweeps exactly two axes" + got);
        break;
    case AnalysisKind::Basins:
        if (n != 2) c.error("sweep", "basins of attraction sweep exactly two initial values" + got);
        for (std::size_t i = 0; i < n; ++i)
            if (s.sweep[i].target != SweepTarget::InitialValue)
                c.error("sweep[" + std::to_string(i) + "]", "basins sweep initial values, not parameters");
        break;
    case AnalysisKind::Trajectory:
        if (n != 0) c.error("sweep", "a trajectory has no sweep" + got);
        break;
    case AnalysisKind::PhasePlane:
        if (n != 0) c.error("sweep", "a phase plane has no sweep (its slider varies one parameter)" + got);
        break;
    }
}

void check_sweep(const Study& s, Checker& c) {
    double systems = 1.0;
    for (std::size_t i = 0; i < s.sweep.size(); ++i) {
        const std::string path = "sweep[" + std::to_string(i) + "]";
        check_axis(s.sweep[i], path, c);
        systems *= s.sweep[i].count < 1 ? 1 : s.sweep[i].count;
        for (std::size_t j = 0; j < i; ++j)
            if (s.sweep[j].target == s.sweep[i].target && s.sweep[j].name == s.sweep[i].name &&
                !s.sweep[i].name.empty())
                c.error(path,
                        "'" + s.sweep[i].name + "' is already swept by sweep[" + std::to_string(j) + "]");
    }
    if (systems > max_system_count)
        c.error("sweep", "the grid has " + Checker::number(systems) + " points; at most " +
                             Checker::number(max_system_count) + " are supported");
    check_axes_for_analysis(s, c);
}

void check_section(const Section& section, Checker& c) {
    const std::string path = std::string(analysis_path) + ".section";
    if (section.kind == SectionKind::Stroboscopic && section.period.empty())
        c.error(path + ".period", "a stroboscopic section needs its period, e.g. \"2*pi/omega\"");
    if (section.kind == SectionKind::Event && section.condition.empty())
        c.error(path + ".condition", "an event section needs the formula whose zero crossings define it");
    c.non_negative(path + ".max_time_between", section.max_time_between);
}

void check_phases(int transient, int recorded, Checker& c) {
    const std::string path = analysis_path;
    c.at_least(path + ".transient_sections", transient, 0);
    c.at_least(path + ".recorded_sections", recorded, 1);
}

void check_period_detection(const PeriodDetection& p, int recorded, Checker& c) {
    const std::string path = std::string(analysis_path) + ".period";
    c.positive(path + ".tolerance", p.tolerance);
    c.at_least(path + ".max_period", p.max_period, 1);
    if (p.max_period >= 1 && recorded < p.max_period + 1 && recorded >= 1)
        c.warning(path + ".max_period", "detecting period " + std::to_string(p.max_period) +
                                            " needs at least " + std::to_string(p.max_period + 1) +
                                            " recorded sections, got " + std::to_string(recorded));
}

void check_orbit_refinement(const BifurcationSettings& s, Checker& c) {
    const OrbitRefinementSettings& o = s.orbits;
    if (!o.refine) return;
    const std::string path = std::string(analysis_path) + ".orbits";
    if (s.section.kind != SectionKind::Stroboscopic)
        c.error(path + ".refine", "orbits are refined on a stroboscopic section (a forced flow's period)");
    c.at_least(path + ".max_period", o.max_period, 1);
    c.positive(path + ".period_tolerance", o.period_tolerance);
    c.at_least(path + ".max_iterations", o.max_iterations, 1);
    c.positive(path + ".tolerance", o.tolerance);
    if (o.max_period >= 1 && s.recorded_sections < 2 * o.max_period)
        c.warning(path + ".max_period", "detecting period " + std::to_string(o.max_period) +
                                            " needs at least " + std::to_string(2 * o.max_period) +
                                            " recorded sections, got " + std::to_string(s.recorded_sections));
}

void check_lyapunov(const LyapunovSettings& s, Checker& c) {
    const std::string path = analysis_path;
    c.non_negative(path + ".transient_time", s.transient_time);
    c.positive(path + ".averaging_time", s.averaging_time);
    c.positive(path + ".renormalization_interval", s.renormalization_interval);
    if (s.renormalization_interval > s.averaging_time && s.averaging_time > 0.0)
        c.error(path + ".renormalization_interval",
                "must not exceed the averaging time " + Checker::number(s.averaging_time));
    c.non_negative(path + ".convergence_tolerance", s.convergence_tolerance);
}

void check_range(const std::string& path, double from, double to, Checker& c) {
    if (!std::isfinite(from) || !std::isfinite(to) || !(from < to))
        c.error(path, "needs finite bounds with from < to, got [" + Checker::number(from) + ", " +
                          Checker::number(to) + "]");
}

// Names are checked against the model when the study is resolved (resolve_names.cpp).
void check_phase_plane(const PhasePlaneSettings& s, Checker& c) {
    const std::string path = analysis_path;
    check_range(path + ".x_range", s.x_from, s.x_to, c);
    check_range(path + ".y_range", s.y_from, s.y_to, c);
    if (s.grid < 3 || s.grid > 2001)
        c.error(path + ".grid", "must lie in [3, 2001], got " + std::to_string(s.grid));
    if (s.arrows < 0 || s.arrows > 201)
        c.error(path + ".arrows", "must lie in [0, 201], got " + std::to_string(s.arrows));
    c.positive(path + ".t_end", s.t_end);
    if (!s.slider.empty()) check_range(path + ".slider.range", s.slider_from, s.slider_to, c);
}

void check_trajectory(const Study& s, Checker& c) {
    const std::string path = analysis_path;
    const auto& t = s.trajectory;
    if (!(t.t_end > s.t0))
        c.error(path + ".t_end",
                "must be later than t0 = " + Checker::number(s.t0) + ", got " + Checker::number(t.t_end));
    if (t.times.empty()) c.at_least(path + ".output_count", t.output_count, 1);
    for (std::size_t i = 0; i < t.times.size(); ++i) {
        const std::string p = path + ".times[" + std::to_string(i) + "]";
        if (t.times[i] < s.t0 || t.times[i] > t.t_end)
            c.error(p, "the time " + Checker::number(t.times[i]) + " lies outside [t0, t_end]");
        else if (i > 0 && !(t.times[i] > t.times[i - 1]))
            c.error(p, "output times must increase");
    }
}

void check_analysis(const Study& s, Checker& c) {
    const std::string path = analysis_path;
    switch (s.analysis) {
    case AnalysisKind::Bifurcation:
        check_section(s.bifurcation.section, c);
        check_phases(s.bifurcation.transient_sections, s.bifurcation.recorded_sections, c);
        check_orbit_refinement(s.bifurcation, c);
        break;
    case AnalysisKind::Lyapunov:
        check_lyapunov(s.lyapunov, c);
        break;
    case AnalysisKind::ParameterMap:
        check_section(s.map.section, c);
        check_phases(s.map.transient_sections, s.map.recorded_sections, c);
        if (s.map.detect_period) check_period_detection(s.map.period, s.map.recorded_sections, c);
        c.non_negative(path + ".renormalization_interval", s.map.renormalization_interval);
        break;
    case AnalysisKind::Basins:
        check_section(s.basins.section, c);
        check_phases(s.basins.transient_sections, s.basins.recorded_sections, c);
        check_period_detection(s.basins.period, s.basins.recorded_sections, c);
        c.positive(path + ".match_tolerance", s.basins.match_tolerance);
        c.at_least(path + ".max_attractors", s.basins.max_attractors, 1);
        break;
    case AnalysisKind::Trajectory:
        check_trajectory(s, c);
        break;
    case AnalysisKind::PhasePlane:
        check_phase_plane(s.phase_plane, c);
        break;
    }
}

// Float32 resolves about 7 digits: tolerances below ~1e-6 cannot be honoured (ENSEMBLES.md).
void check_tolerance(const Tolerance& t, const std::string& path, bool in_float, Checker& c) {
    c.positive(path, t.all);
    double smallest = t.all;
    for (const auto& [name, value] : t.per_state) {
        c.positive(path + "." + name, value);
        smallest = std::min(smallest, value);
    }
    if (in_float && smallest < 1e-6)
        c.warning(path, "float precision cannot honour a tolerance below about 1e-6, got " +
                            Checker::number(smallest) + "; use \"precision\": \"double\" or \"auto\"");
}

void check_solver(const Study& s, Checker& c) {
    const auto& v = s.solver;
    const bool in_float = s.precision == PrecisionChoice::Float;
    check_tolerance(v.rtol, "solver.rtol", in_float, c);
    check_tolerance(v.atol, "solver.atol", in_float, c);
    c.positive("solver.initial_step", v.initial_step);
    c.non_negative("solver.min_step", v.min_step);
    c.non_negative("solver.max_step", v.max_step);
    if (v.max_step > 0.0 && v.min_step > v.max_step)
        c.error("solver.min_step", "must not exceed max_step " + Checker::number(v.max_step));
    if (v.max_step > 0.0 && v.initial_step > v.max_step)
        c.error("solver.initial_step", "must not exceed max_step " + Checker::number(v.max_step));
    if (!(v.max_growth > 1.0))
        c.error("solver.max_growth", "must be above 1, got " + Checker::number(v.max_growth));
    if (!(v.min_shrink > 0.0 && v.min_shrink < 1.0))
        c.error("solver.min_shrink", "must lie between 0 and 1, got " + Checker::number(v.min_shrink));
    c.at_least("solver.max_steps", v.max_steps, 1);
    c.non_negative("solver.bound", v.bound);
}

} // namespace

const Section* active_section(const Study& study) {
    switch (study.analysis) {
    case AnalysisKind::Bifurcation:
        return &study.bifurcation.section;
    case AnalysisKind::ParameterMap:
        return &study.map.section;
    case AnalysisKind::Basins:
        return &study.basins.section;
    case AnalysisKind::Lyapunov:
    case AnalysisKind::Trajectory:
    case AnalysisKind::PhasePlane:
        return nullptr;
    }
    return nullptr;
}

Problems check_study_values(const Study& study) {
    Problems problems;
    Checker c{problems};
    check_model_source(study, c);
    if (!std::isfinite(study.t0)) c.error("t0", "must be a finite number");
    check_sweep(study, c);
    check_analysis(study, c);
    check_solver(study, c);
    return problems;
}

} // namespace bif::study
