#include "engine/study/study_json.h"

#include <nlohmann/json.hpp>

namespace bif::study {

namespace {

using ojson = nlohmann::ordered_json;

ojson named_numbers(const std::vector<std::pair<std::string, double>>& pairs) {
    ojson out = ojson::object();
    for (const auto& [name, value] : pairs)
        out[name] = value;
    return out;
}

ojson section_json(const Section& s) {
    ojson out;
    out["kind"] = name_of(s.kind);
    if (s.kind == SectionKind::Stroboscopic) {
        out["period"] = s.period;
    } else {
        out["condition"] = s.condition;
        out["direction"] = name_of(s.direction);
        out["max_time_between"] = s.max_time_between;
    }
    return out;
}

ojson recorded_json(const std::vector<RecordedQuantity>& record) {
    ojson out = ojson::array();
    for (const auto& q : record) {
        if (q.name.empty() && q.value == IntervalValue::AtSection) {
            out.push_back(q.expression);
            continue;
        }
        ojson item;
        item["expression"] = q.expression;
        if (!q.name.empty()) item["name"] = q.name;
        item["value"] = name_of(q.value);
        out.push_back(item);
    }
    return out;
}

ojson period_json(const PeriodDetection& p) {
    return ojson{{"tolerance", p.tolerance}, {"max_period", p.max_period}};
}

ojson accessories_json(const std::vector<Accessory>& accessories) {
    ojson out = ojson::array();
    for (const auto& a : accessories) {
        ojson item;
        if (!a.name.empty()) item["name"] = a.name;
        item["expression"] = a.expression;
        item["reduce"] = name_of(a.reduce);
        item["over"] = name_of(a.over);
        out.push_back(item);
    }
    return out;
}

void write_phase_plane(const PhasePlaneSettings& s, ojson& a) {
    a["x"] = s.x;
    a["y"] = s.y;
    a["x_range"] = {s.x_from, s.x_to};
    a["y_range"] = {s.y_from, s.y_to};
    a["grid"] = s.grid;
    a["arrows"] = s.arrows;
    a["t_end"] = s.t_end;
    a["fixed"] = named_numbers(s.fixed);
    ojson starts = ojson::array();
    for (const auto& [x, y] : s.starts)
        starts.push_back({x, y});
    a["trajectories"] = starts;
    if (!s.slider.empty()) {
        ojson slider;
        slider["parameter"] = s.slider;
        slider["range"] = {s.slider_from, s.slider_to};
        a["slider"] = slider;
    }
}

void write_analysis_settings(const Study& study, ojson& a) {
    switch (study.analysis) {
    case AnalysisKind::Bifurcation: {
        const auto& s = study.bifurcation;
        a["section"] = section_json(s.section);
        a["transient_sections"] = s.transient_sections;
        a["recorded_sections"] = s.recorded_sections;
        a["record"] = recorded_json(s.record);
        a["continuation"] = s.continuation;
        if (s.orbits.refine) {
            ojson orbits;
            orbits["refine"] = true;
            orbits["max_period"] = s.orbits.max_period;
            orbits["period_tolerance"] = s.orbits.period_tolerance;
            orbits["max_iterations"] = s.orbits.max_iterations;
            orbits["tolerance"] = s.orbits.tolerance;
            a["orbits"] = orbits;
        }
        break;
    }
    case AnalysisKind::Lyapunov: {
        const auto& s = study.lyapunov;
        a["exponents"] = name_of(s.mode);
        a["transient_time"] = s.transient_time;
        a["averaging_time"] = s.averaging_time;
        a["renormalization_interval"] = s.renormalization_interval;
        a["convergence_tolerance"] = s.convergence_tolerance;
        break;
    }
    case AnalysisKind::ParameterMap: {
        const auto& s = study.map;
        a["section"] = section_json(s.section);
        a["transient_sections"] = s.transient_sections;
        a["recorded_sections"] = s.recorded_sections;
        a["detect_period"] = s.detect_period;
        a["period"] = period_json(s.period);
        a["largest_exponent"] = s.largest_exponent;
        a["renormalization_interval"] = s.renormalization_interval;
        a["accessories"] = accessories_json(s.accessories);
        a["count_events"] = s.count_events;
        break;
    }
    case AnalysisKind::Basins: {
        const auto& s = study.basins;
        a["section"] = section_json(s.section);
        a["transient_sections"] = s.transient_sections;
        a["recorded_sections"] = s.recorded_sections;
        a["period"] = period_json(s.period);
        a["match_tolerance"] = s.match_tolerance;
        a["max_attractors"] = s.max_attractors;
        break;
    }
    case AnalysisKind::Trajectory: {
        const auto& s = study.trajectory;
        a["t_end"] = s.t_end;
        a["output_count"] = s.output_count;
        if (!s.times.empty()) a["times"] = s.times;
        a["record"] = s.record;
        break;
    }
    case AnalysisKind::PhasePlane:
        write_phase_plane(study.phase_plane, a);
        break;
    }
}

ojson tolerance_json(const Tolerance& t) {
    if (t.per_state.empty()) return t.all;
    ojson out = ojson::object();
    out["*"] = t.all;
    for (const auto& [name, value] : t.per_state)
        out[name] = value;
    return out;
}

ojson solver_json(const SolverSettings& s) {
    ojson out;
    out["method"] = name_of(s.method);
    out["rtol"] = tolerance_json(s.rtol);
    out["atol"] = tolerance_json(s.atol);
    out["initial_step"] = s.initial_step;
    out["min_step"] = s.min_step;
    out["max_step"] = s.max_step;
    out["max_growth"] = s.max_growth;
    out["min_shrink"] = s.min_shrink;
    out["max_steps"] = s.max_steps;
    if (s.bound > 0.0) out["bound"] = s.bound;
    return out;
}

} // namespace

std::string write_study_json(const Study& study) {
    ojson root;
    root["bifscope_study"] = current_schema_version;
    if (!study.title.empty()) root["title"] = study.title;
    if (!study.description.empty()) root["description"] = study.description;
    ojson model = ojson::object(); // never null, which the reader refuses
    if (!study.model.path.empty()) model["path"] = study.model.path;
    if (!study.model.text.empty()) model["text"] = study.model.text;
    root["model"] = model;
    root["parameters"] = named_numbers(study.parameters);
    root["initial"] = named_numbers(study.initial);
    root["t0"] = study.t0;
    ojson sweep = ojson::array();
    for (const auto& axis : study.sweep) {
        ojson a;
        a[axis.target == SweepTarget::Parameter ? "parameter" : "initial"] = axis.name;
        a["from"] = axis.from;
        a["to"] = axis.to;
        a["count"] = axis.count;
        a["scale"] = name_of(axis.scale);
        sweep.push_back(a);
    }
    root["sweep"] = sweep;
    ojson analysis;
    analysis["kind"] = name_of(study.analysis);
    write_analysis_settings(study, analysis);
    root["analysis"] = analysis;
    root["solver"] = solver_json(study.solver);
    root["precision"] = name_of(study.precision);
    root["backend"] = name_of(study.backend);
    if (!study.gpus.empty()) root["gpus"] = study.gpus;
    return root.dump(2) + "\n";
}

} // namespace bif::study
