#include "engine/study/enum_names.h"

#include "engine/study/study_problem.h"

namespace bif::study {

template <>
std::span<const EnumName<AnalysisKind>> enum_names() {
    static constexpr EnumName<AnalysisKind> table[] = {
        {AnalysisKind::Bifurcation, "bifurcation"}, {AnalysisKind::Lyapunov, "lyapunov"},
        {AnalysisKind::ParameterMap, "map"},        {AnalysisKind::Basins, "basins"},
        {AnalysisKind::Trajectory, "trajectory"},   {AnalysisKind::PhasePlane, "phase_plane"}};
    return table;
}

template <>
std::span<const EnumName<SweepScale>> enum_names() {
    static constexpr EnumName<SweepScale> table[] = {{SweepScale::Linear, "linear"},
                                                     {SweepScale::Log, "log"}};
    return table;
}

template <>
std::span<const EnumName<Method>> enum_names() {
    static constexpr EnumName<Method> table[] = {{Method::Rk4, "rk4"},
                                                 {Method::Rkck45, "rkck45"},
                                                 {Method::Dopri5, "dopri5"},
                                                 {Method::Rkc, "rkc"},
                                                 {Method::Rosenbrock23, "rosenbrock23"},
                                                 {Method::Rodas4, "rodas4"},
                                                 {Method::Iteration, "iteration"}};
    return table;
}

template <>
std::span<const EnumName<PrecisionChoice>> enum_names() {
    static constexpr EnumName<PrecisionChoice> table[] = {{PrecisionChoice::Auto, "auto"},
                                                          {PrecisionChoice::Float, "float"},
                                                          {PrecisionChoice::Double, "double"}};
    return table;
}

template <>
std::span<const EnumName<BackendChoice>> enum_names() {
    static constexpr EnumName<BackendChoice> table[] = {
        {BackendChoice::Auto, "auto"}, {BackendChoice::Cpu, "cpu"}, {BackendChoice::Cuda, "cuda"}};
    return table;
}

template <>
std::span<const EnumName<SectionKind>> enum_names() {
    static constexpr EnumName<SectionKind> table[] = {{SectionKind::Stroboscopic, "stroboscopic"},
                                                      {SectionKind::Event, "event"}};
    return table;
}

template <>
std::span<const EnumName<CrossingDirection>> enum_names() {
    static constexpr EnumName<CrossingDirection> table[] = {{CrossingDirection::Rising, "rising"},
                                                            {CrossingDirection::Falling, "falling"},
                                                            {CrossingDirection::Both, "both"}};
    return table;
}

template <>
std::span<const EnumName<IntervalValue>> enum_names() {
    static constexpr EnumName<IntervalValue> table[] = {{IntervalValue::AtSection, "section"},
                                                        {IntervalValue::MaxBetween, "max_between"},
                                                        {IntervalValue::MinBetween, "min_between"}};
    return table;
}

template <>
std::span<const EnumName<Reduction>> enum_names() {
    static constexpr EnumName<Reduction> table[] = {
        {Reduction::Max, "max"}, {Reduction::Min, "min"}, {Reduction::Mean, "mean"}};
    return table;
}

template <>
std::span<const EnumName<ReductionDomain>> enum_names() {
    static constexpr EnumName<ReductionDomain> table[] = {{ReductionDomain::Sections, "sections"},
                                                          {ReductionDomain::Steps, "steps"}};
    return table;
}

template <>
std::span<const EnumName<LyapunovMode>> enum_names() {
    static constexpr EnumName<LyapunovMode> table[] = {{LyapunovMode::Largest, "largest"},
                                                       {LyapunovMode::Spectrum, "spectrum"}};
    return table;
}

const char* name_of(AnalysisKind v) {
    return enum_to_name(v);
}
const char* name_of(SweepScale v) {
    return enum_to_name(v);
}
const char* name_of(Method v) {
    return enum_to_name(v);
}
const char* name_of(PrecisionChoice v) {
    return enum_to_name(v);
}
const char* name_of(BackendChoice v) {
    return enum_to_name(v);
}
const char* name_of(SectionKind v) {
    return enum_to_name(v);
}
const char* name_of(CrossingDirection v) {
    return enum_to_name(v);
}
const char* name_of(IntervalValue v) {
    return enum_to_name(v);
}
const char* name_of(Reduction v) {
    return enum_to_name(v);
}
const char* name_of(ReductionDomain v) {
    return enum_to_name(v);
}
const char* name_of(LyapunovMode v) {
    return enum_to_name(v);
}

std::string Problem::format() const {
    std::string text = severity == ProblemSeverity::Error ? "error: " : "warning: ";
    if (!path.empty()) text += path + ": ";
    return text + message;
}

bool has_errors(const Problems& problems) {
    for (const auto& p : problems)
        if (p.severity == ProblemSeverity::Error) return true;
    return false;
}

} // namespace bif::study
