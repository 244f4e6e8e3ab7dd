#include "engine/study/model_options.h"

#include "engine/model/parse.h"
#include "engine/study/decimal_rounding.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

namespace bif::study {

namespace {

std::optional<double> read_number(std::string_view text) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
    return value;
}

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

struct MethodChoice {
    std::optional<Method> method;
    const char* why;
};

// XPPAUT 6.11 picks the method by the value's first character (load_eqn.c, the METH option): d
// discrete, e Euler, m modified Euler, r Runge-Kutta 4, a Adams, g Gear, v Volterra, b backward
// Euler, q qualrk, s stiff, c CVODE, 5 Dormand-Prince 5, 8 Dormand-Prince 8(5,3), 2 Rosenbrock
// 2(3), y symplectic. Each maps to the Bifscope method closest in kind.
MethodChoice method_for(std::string_view value) {
    switch (value.empty() ? '\0' : lower(value.front())) {
    case 'r':
        return {Method::Rk4, "XPPAUT's fixed-step Runge-Kutta 4"};
    case 'q':
        return {Method::Rkck45, "XPPAUT's qualrk is the adaptive Cash-Karp Runge-Kutta 4(5)"};
    case '5':
        return {Method::Dopri5, "Dormand-Prince 5(4)"};
    case '8':
        return {Method::Dopri5, "Dormand-Prince 8(5,3) is not available; the adaptive Dormand-Prince 5(4) "
                                "is the closest"};
    case '2':
        return {Method::Rosenbrock23, "Rosenbrock 2(3)"};
    case 's':
        return {Method::Rodas4, "XPPAUT's stiff is an adaptive 4th-order Rosenbrock method"};
    case 'c':
        return {Method::Rodas4, "CVODE (adaptive BDF) is not available; the stiff Rodas4 is the closest"};
    case 'g':
        return {Method::Rodas4, "Gear (adaptive stiff) is not available; the stiff Rodas4 is the closest"};
    case 'b':
        return {Method::Rosenbrock23, "backward Euler is not available; the L-stable Rosenbrock 2(3) is "
                                      "the closest implicit method"};
    case 'e':
    case 'm':
    case 'a':
    case 'y':
        return {Method::Rk4, "this fixed-step method is not available; fixed-step Runge-Kutta 4 with "
                             "the same dt"};
    case 'd':
        return {Method::Iteration, "a map (difference equation), iterated"};
    case 'v':
        return {std::nullopt, "Volterra integral equations are not supported"};
    default:
        return {std::nullopt, "XPPAUT knows no such method"};
    }
}

void set_all_sections(Study& s, const Section& section) {
    s.bifurcation.section = section;
    s.map.section = section;
    s.basins.section = section;
}

struct OptionReader {
    const model::Model& model;
    ModelDefaults& out;

    const model::Option* option(const char* name) const { return model.option(name); }

    static std::string label(const model::Option& o) { return o.name + "=" + o.value; }

    void note(const model::Option& o, const std::string& text) {
        out.notes.push_back(label(o) + ": " + text);
    }

    // A note for a setting the option gave, at the path a study file writes it.
    void use(const char* path, const model::Option& o, const std::string& text) {
        note(o, text);
        out.used.push_back({path, out.notes.back()});
    }

    // The option's value as a number, or a note saying it was left aside.
    std::optional<double> number(const model::Option& o) {
        const auto value = read_number(o.value);
        if (!value) note(o, "not a number; the default is kept");
        return value;
    }

    std::optional<double> positive(const char* name) {
        const model::Option* o = option(name);
        if (!o) return std::nullopt;
        const auto value = number(*o);
        if (value && !(*value > 0.0)) {
            note(*o, "must be positive; the default is kept");
            return std::nullopt;
        }
        return value;
    }

    void method() {
        const model::Option* o = option("meth");
        if (!o) return;
        const MethodChoice choice = method_for(o->value);
        if (!choice.method) return note(*o, std::string(choice.why) + "; the default method is kept");
        out.study.solver.method = *choice.method;
        use("solver.method", *o, std::string("solver ") + name_of(*choice.method) + " (" + choice.why + ")");
    }

    // XPPAUT's TOL bounds the local error of its adaptive methods relative to the solution: rtol.
    void tolerances() {
        if (auto v = positive("tol")) {
            out.study.solver.rtol.all = *v;
            use("solver.rtol", *option("tol"), "solver rtol");
        }
        if (auto v = positive("atol")) {
            out.study.solver.atol.all = *v;
            use("solver.atol", *option("atol"), "solver atol");
        }
    }

    // DT is RK4's fixed step and the first step of the adaptive methods; XPPAUT integrates
    // backwards for a negative DT, which a study cannot.
    void steps() {
        if (model.is_map()) return; // a map steps one iterate at a time; XPPAUT ignores DT there
        if (auto v = positive("dt")) {
            out.study.solver.initial_step = *v;
            use("solver.initial_step", *option("dt"), "solver initial step (rk4's fixed step)");
        }
        if (auto v = positive("dtmin")) {
            out.study.solver.min_step = *v;
            use("solver.min_step", *option("dtmin"), "solver min step");
        }
        if (auto v = positive("dtmax")) {
            out.study.solver.max_step = *v;
            use("solver.max_step", *option("dtmax"), "solver max step");
        }
    }

    // XPPAUT integrates from T0 for TOTAL time units and stores rows from T0+TRANS on.
    void times() {
        if (const model::Option* o = option("t0"))
            if (auto v = number(*o)) {
                out.study.t0 = *v;
                use("t0", *o, "t0");
            }
        if (auto v = positive("total")) {
            out.study.trajectory.t_end = out.study.t0 + *v;
            out.total = *v;
            use("analysis.t_end", *option("total"), "trajectory t_end = t0 + total");
        }
        const model::Option* trans = option("trans");
        if (!trans) return;
        const auto v = number(*trans);
        if (!v) return;
        if (*v < 0.0) return note(*trans, "must not be negative; the default is kept");
        out.study.lyapunov.transient_time = *v;
        use("analysis.transient_time", *trans, "Lyapunov transient time");
    }

    // The name as the model writes it, "t", or "" when the model has no such state.
    std::string section_variable(const std::string& written) const {
        if (written.size() == 1 && lower(written[0]) == 't') return "t";
        const int index = model.state_index(written);
        return index < 0 ? std::string() : model.states[index].name;
    }

    // POIVAR=t samples stroboscopically at t = 0 mod POIPLN; any other POIVAR samples where it
    // crosses POIPLN, in the direction POISGN gives (1 rising, -1 falling, 0 either; XPPAUT's
    // default is 1). POIMAP=max and period have no Bifscope equivalent: the crossing is kept.
    void section() {
        const model::Option* map = option("poimap");
        const model::Option* var = option("poivar");
        const model::Option* plane = option("poipln");
        const model::Option* sign = option("poisgn");
        if (map && !(map->value.size() > 0 && lower(map->value[0]) == 's'))
            note(*map, "only POIMAP=section has a Bifscope equivalent; the section still follows "
                       "poivar and poipln");
        else if (map)
            note(*map, "the section follows poivar and poipln");
        if (!var) return;
        const std::string name = section_variable(var->value);
        if (name.empty()) return note(*var, "not a state variable or t; the default section is kept");
        const std::string level = plane ? plane->value : "0";
        const auto level_value = read_number(level);
        if (!level_value) return note(*plane, "not a number; the default section is kept");

        Section s;
        if (name == "t") {
            if (!(*level_value > 0.0))
                return note(*var, "a stroboscopic section needs a positive poipln; the default is kept");
            s.kind = SectionKind::Stroboscopic;
            s.period = level;
            use("analysis.section", *var, "stroboscopic section every poipln = " + level);
        } else {
            s.kind = SectionKind::Event;
            s.condition = *level_value == 0.0 ? name : name + "-(" + level + ")";
            s.direction = crossing_direction(sign);
            use("analysis.section", *var,
                std::string("event section where ") + s.condition + " crosses zero, " + name_of(s.direction));
        }
        set_all_sections(out.study, s);
        out.study.analysis = AnalysisKind::Bifurcation;
        sweep_first_parameter();
    }

    // A bifurcation diagram needs an axis: the first parameter, from half to one and a half times
    // its value (0 to 1 when it is 0), so that the study runs as it is.
    void sweep_first_parameter() {
        if (model.parameters.empty()) return;
        const model::Parameter& p = model.parameters.front();
        SweepAxis axis;
        axis.name = p.name;
        axis.from = p.value == 0.0 ? 0.0 : round_significant(0.5 * p.value, 12);
        axis.to = p.value == 0.0 ? 1.0 : round_significant(1.5 * p.value, 12);
        axis.count = 101;
        out.study.sweep = {axis};
    }

    CrossingDirection crossing_direction(const model::Option* sign) {
        if (!sign) return CrossingDirection::Rising;
        const auto v = read_number(sign->value);
        if (v && *v > 0.0) return CrossingDirection::Rising;
        if (v && *v < 0.0) return CrossingDirection::Falling;
        if (v) return CrossingDirection::Both;
        note(*sign, "not a number; crossings are taken rising, XPPAUT's default");
        return CrossingDirection::Rising;
    }

    // XP and YP name the plotted quantities: the trajectory records those that a study formula can
    // use (t is the time column anyway; aux quantities are not study formulas).
    void plotted() {
        model::Model scratch = model;
        for (const char* axis : {"xp", "yp"}) {
            const model::Option* o = option(axis);
            if (!o) continue;
            if (o->value.size() == 1 && lower(o->value[0]) == 't') continue;
            if (model::parse_expression(scratch, o->value).node) {
                out.study.trajectory.record.push_back(o->value);
                use("analysis.record", *o, "recorded by the trajectory");
            } else {
                note(*o, "not a state or formula of the model; not recorded");
            }
        }
    }

    // XPPAUT stops a run whose state leaves |y_i| <= BOUND, flow or map alike. Only a BOUND the
    // model writes is taken: XPPAUT's implicit 100 would end many flows that merely have large
    // states (a study without a bound stops a diverging system when it overflows, NonFinite).
    void bound() {
        if (auto v = positive("bound")) {
            out.study.solver.bound = *v;
            use("solver.bound", *option("bound"), "bound (a state beyond it ends the system: escaped)");
        }
    }

    void not_used() {
        if (const model::Option* o = option("poistop"))
            note(*o, "not used (a section point does not stop the run)");
    }
};

} // namespace

ModelDefaults model_defaults(const model::Model& model) {
    ModelDefaults out;
    // Without a Poincaré section the model is first looked at as XPPAUT shows it: one trajectory.
    out.study.analysis = AnalysisKind::Trajectory;
    OptionReader reader{model, out};
    reader.method();
    reader.tolerances();
    reader.steps();
    reader.times();
    reader.section();
    reader.plotted();
    reader.bound();
    reader.not_used();
    if (model.is_map()) {
        out.study.solver.method = Method::Iteration;
        out.study.solver.initial_step = 1.0;
        set_all_sections(out.study,
                         Section{SectionKind::Stroboscopic, "1", "", CrossingDirection::Rising, 0.0});
    }
    return out;
}

Study study_defaults_from_model(const model::Model& model) {
    return model_defaults(model).study;
}

namespace {

// Whether the setting at `path` is one the study's analysis has.
bool applies(const std::string& path, AnalysisKind kind) {
    if (path == "analysis.section")
        return kind == AnalysisKind::Bifurcation || kind == AnalysisKind::ParameterMap ||
               kind == AnalysisKind::Basins;
    if (path == "analysis.t_end" || path == "analysis.record") return kind == AnalysisKind::Trajectory;
    if (path == "analysis.transient_time") return kind == AnalysisKind::Lyapunov;
    return true;
}

Section& section_of(Study& study) {
    switch (study.analysis) {
    case AnalysisKind::ParameterMap:
        return study.map.section;
    case AnalysisKind::Basins:
        return study.basins.section;
    default:
        return study.bifurcation.section;
    }
}

void take(Study& study, const ModelDefaults& defaults, const std::string& path) {
    const Study& from = defaults.study;
    if (path == "solver.method") study.solver.method = from.solver.method;
    if (path == "solver.rtol") study.solver.rtol = from.solver.rtol;
    if (path == "solver.atol") study.solver.atol = from.solver.atol;
    if (path == "solver.initial_step") study.solver.initial_step = from.solver.initial_step;
    if (path == "solver.min_step") study.solver.min_step = from.solver.min_step;
    if (path == "solver.max_step") study.solver.max_step = from.solver.max_step;
    if (path == "solver.bound") study.solver.bound = from.solver.bound;
    if (path == "t0") study.t0 = from.t0;
    // The study's own t0 when it gives one: XPPAUT integrates TOTAL time units from wherever it starts.
    if (path == "analysis.t_end") study.trajectory.t_end = study.t0 + defaults.total.value_or(0.0);
    if (path == "analysis.record") study.trajectory.record = from.trajectory.record;
    if (path == "analysis.transient_time") study.lyapunov.transient_time = from.lyapunov.transient_time;
    if (path == "analysis.section") section_of(study) = from.bifurcation.section;
}

} // namespace

Problems apply_model_defaults(Study& study, const model::Model& model) {
    Problems problems;
    if (!study.given) return problems;
    const std::set<std::string> given = std::move(*study.given);
    study.given.reset();
    const ModelDefaults defaults = model_defaults(model);
    // `used` lists t0 before total, so a trajectory's end counts from the t0 it will have.
    for (const OptionUse& use : defaults.used) {
        if (given.count(use.path) || !applies(use.path, study.analysis)) continue;
        take(study, defaults, use.path);
        // the model's bound is part of the model as XPPAUT runs it, not a choice of integration
        // settings: taken without a warning (else every study of such a model would warn)
        if (use.path == "solver.bound") continue;
        problems.push_back({ProblemSeverity::Warning, use.path, "not given; from the model's " + use.note});
    }
    return problems;
}

} // namespace bif::study
