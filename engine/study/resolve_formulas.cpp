#include "engine/model/parse.h"
#include "engine/study/resolve_parts.h"
#include "engine/study/study_checks.h"

#include <optional>

namespace bif::study::detail {

namespace {

struct FormulaResolver {
    model::Model& model;
    ResolvedStudy& out;
    Problems& problems;

    std::optional<sym::NodeId> parse(const std::string& text, const std::string& path) {
        model::ExpressionResult r = model::parse_expression(model, text);
        for (const auto& d : r.diagnostics)
            if (d.severity != model::Severity::Note)
                problems.push_back(problem_from_diagnostic(d, path, false));
        if (model::has_errors(r.diagnostics)) return std::nullopt;
        return r.node;
    }

    int add_observable(sym::NodeId node) {
        out.formulas.observables.push_back(node);
        return static_cast<int>(out.formulas.observables.size()) - 1;
    }

    void section(const Section& s) {
        const std::string path = std::string(analysis_path) + ".section";
        if (s.kind == SectionKind::Stroboscopic) {
            const auto node = parse(s.period, path + ".period");
            if (!node) return;
            if (model.pool.depends_on_state_or_time(*node)) {
                problems.push_back({ProblemSeverity::Error, path + ".period",
                                    "the period may depend on parameters only, not on the state or t"});
                return;
            }
            out.formulas.period = *node;
            out.formulas.period_observable = add_observable(*node);
            return;
        }
        const auto node = parse(s.condition, path + ".condition");
        if (!node) return;
        if (!model.pool.depends_on_state_or_time(*node))
            problems.push_back({ProblemSeverity::Warning, path + ".condition",
                                "depends on neither the state nor t, so it never crosses zero"});
        const int direction = s.direction == CrossingDirection::Rising    ? 1
                              : s.direction == CrossingDirection::Falling ? -1
                                                                          : 2;
        out.formulas.study_events.push_back({*node, direction});
        out.formulas.section_event =
            static_cast<int>(model.events.size() + out.formulas.study_events.size()) - 1;
    }

    void every_state_recorded() {
        for (std::size_t i = 0; i < model.num_states(); ++i) {
            StudyQuantity q;
            q.name = model.states[i].name;
            q.observable = add_observable(model.pool.state(static_cast<std::uint32_t>(i)));
            out.formulas.recorded.push_back(q);
        }
    }

    void recorded(const std::vector<RecordedQuantity>& record) {
        if (record.empty()) return every_state_recorded();
        const std::string path = std::string(analysis_path) + ".record";
        for (std::size_t i = 0; i < record.size(); ++i) {
            const auto node = parse(record[i].expression, path + "[" + std::to_string(i) + "]");
            if (!node) continue;
            StudyQuantity q;
            q.name = record[i].name.empty() ? record[i].expression : record[i].name;
            q.value = record[i].value;
            q.observable = add_observable(*node);
            out.formulas.recorded.push_back(q);
        }
    }

    // The recorded column of every state at the section, the guesses of orbit refinement.
    void orbit_guesses(const OrbitRefinementSettings& orbits) {
        if (!orbits.refine) return;
        const std::string path = std::string(analysis_path) + ".orbits.refine";
        if (model.is_map()) {
            problems.push_back(
                {ProblemSeverity::Error, path,
                 "orbits are refined for flows; a map's orbits: the orbit_continuation study"});
            return;
        }
        std::string missing;
        for (std::size_t i = 0; i < model.num_states(); ++i) {
            int column = -1;
            for (std::size_t j = 0; j < out.formulas.recorded.size() && column < 0; ++j) {
                const StudyQuantity& q = out.formulas.recorded[j];
                const sym::Node& node = model.pool.node(out.formulas.observables[std::size_t(q.observable)]);
                if (q.value == IntervalValue::AtSection && node.op == sym::Op::State && node.index == i)
                    column = int(j);
            }
            if (column < 0) missing += (missing.empty() ? "" : ", ") + model.states[i].name;
            out.formulas.orbit_guess_columns.push_back(column);
        }
        if (!missing.empty()) {
            out.formulas.orbit_guess_columns.clear();
            problems.push_back(
                {ProblemSeverity::Error, path,
                 "orbit refinement starts from the recorded section points: record every state "
                 "variable at the section (missing: " +
                     missing + ")"});
        }
    }

    void recorded_texts(const std::vector<std::string>& record) {
        std::vector<RecordedQuantity> quantities;
        for (const auto& text : record)
            quantities.push_back({text, "", IntervalValue::AtSection});
        recorded(quantities);
    }

    void accessories(const std::vector<Accessory>& list) {
        const std::string path = std::string(analysis_path) + ".accessories";
        for (std::size_t i = 0; i < list.size(); ++i) {
            const auto node = parse(list[i].expression, path + "[" + std::to_string(i) + "]");
            if (!node) continue;
            StudyQuantity q;
            q.name = list[i].name.empty() ? list[i].expression : list[i].name;
            q.reduce = list[i].reduce;
            q.over = list[i].over;
            q.observable = add_observable(*node);
            out.formulas.accessories.push_back(q);
        }
    }
};

} // namespace

Problem problem_from_diagnostic(const model::Diagnostic& d, const std::string& path, bool with_file) {
    std::string message;
    if (with_file) {
        message = d.file;
        // append() rather than ":" + to_string(): GCC 12 warns falsely (-Wrestrict) on the latter
        if (d.line > 0) message.append(":").append(std::to_string(d.line));
        if (d.line > 0 && d.column > 0) message.append(":").append(std::to_string(d.column));
        message += ": ";
    } else if (d.column > 0)
        message.append("at column ").append(std::to_string(d.column)).append(": ");
    message += d.message;
    if (!d.code.empty()) message += " [" + d.code + "]";
    const auto severity =
        d.severity == model::Severity::Error ? ProblemSeverity::Error : ProblemSeverity::Warning;
    return {severity, path, message};
}

void resolve_formulas(model::Model& model, ResolvedStudy& out, Problems& problems) {
    FormulaResolver r{model, out, problems};
    const Study& s = out.study;
    switch (s.analysis) {
    case AnalysisKind::Bifurcation:
        r.recorded(s.bifurcation.record);
        r.orbit_guesses(s.bifurcation.orbits);
        r.section(s.bifurcation.section);
        break;
    case AnalysisKind::ParameterMap:
        r.accessories(s.map.accessories);
        r.section(s.map.section);
        break;
    case AnalysisKind::Basins:
        r.section(s.basins.section);
        break;
    case AnalysisKind::Trajectory:
        r.recorded_texts(s.trajectory.record);
        break;
    case AnalysisKind::Lyapunov:
    case AnalysisKind::PhasePlane:
        break;
    }
}

} // namespace bif::study::detail
