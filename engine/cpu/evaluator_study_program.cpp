#include "engine/cpu/evaluator_study_program.h"

#include "engine/cpu/evaluator_program_impl.h"

namespace bif::cpu {

std::string evaluator_unsupported_reason(const study::ResolvedStudy& study) {
    const EvaluatorLimits limits;
    const model::Model& m = *study.model;
    const std::size_t events = m.events.size() + study.formulas.study_events.size();
    auto over = [](const char* what, std::size_t has, int limit) {
        return std::string("the compiler-free evaluator runs models with at most ") + std::to_string(limit) +
               " " + what + "; this study has " + std::to_string(has);
    };
    if (m.num_states() > std::size_t(limits.states)) return over("states", m.num_states(), limits.states);
    if (m.num_param_slots() > std::size_t(limits.param_slots))
        return over("parameters", m.num_param_slots(), limits.param_slots);
    if (events > std::size_t(limits.events)) return over("events", events, limits.events);
    if (study.formulas.observables.size() > std::size_t(limits.observables))
        return over("recorded expressions", study.formulas.observables.size(), limits.observables);
    return {};
}

std::unique_ptr<StudyProgram> make_evaluator_program(const study::ResolvedStudy& study,
                                                     const ensemble::SpecStorage& spec) {
    auto host = std::make_shared<const codegen::HostModel>(study.codegen_request(codegen::Precision::Double));
    const ensemble::StudySpec& s = spec.spec();
    switch (study.study.solver.method) {
    case study::Method::Rk4:
        return detail::make_evaluator_for<ensemble::methods::Rk4>(host, s);
    case study::Method::Rkck45:
        return detail::make_evaluator_for<ensemble::methods::Rkck45>(host, s);
    case study::Method::Dopri5:
        return detail::make_evaluator_for<ensemble::methods::Dopri5>(host, s);
    case study::Method::Rkc:
        return detail::make_evaluator_for<ensemble::methods::Rkc>(host, s);
    case study::Method::Rosenbrock23:
        return detail::make_evaluator_for<ensemble::methods::Rosenbrock23>(host, s);
    case study::Method::Rodas4:
        return detail::make_evaluator_for<ensemble::methods::Rodas4>(host, s);
    case study::Method::Iteration:
        return detail::make_evaluator_for<ensemble::methods::Iteration>(host, s);
    }
    return detail::make_evaluator_for<ensemble::methods::Rkck45>(host, s);
}

} // namespace bif::cpu
