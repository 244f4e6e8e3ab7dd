// The evaluator program template, instantiated once per method in evaluator_<method>.cpp (kept
// apart so that the six instantiations compile in parallel).
#pragma once

// The programs fill state-sized arrays up to the model's run-time size and the evaluator reads no
// further, which GCC cannot see through the out-of-line HostModel calls: its maybe-uninitialized
// warnings for the unused capacity are noise here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "bif/study/entry.h"
#include "bif/study/orbit_refine.h"
#include "engine/codegen/host_model.h"
#include "engine/cpu/study_program.h"

#include <memory>

namespace bif::cpu::detail {

// Capacity buckets: small models fit the first (smaller arrays, less zero padding of the Lyapunov
// spectrum), the rest up to EvaluatorLimits the second.
using SmallEvaluatorModel = codegen::HostModelView<4, 64, 16, 64, 16>;
using LargeEvaluatorModel = codegen::HostModelView<16, 64, 16, 64, 32>;

template <class ModelView, class Method>
class EvaluatorStudyProgram : public StudyProgram {
  public:
    EvaluatorStudyProgram(std::shared_ptr<const codegen::HostModel> host, const ensemble::StudySpec& spec)
        : host_(std::move(host)), model_(*host_), block_(ensemble::make_block(model_, spec)) {}

    int carry_words() const override { return ensemble::carry_words(block_); }
    bool advance(const ensemble::View<double>& view, ensemble::index_t system,
                 long long budget) const override {
        return ensemble::advance_system<Method>(model_, block_, view, system, budget);
    }
    study::CodePath code_path() const override { return study::CodePath::Evaluator; }
    void refine_orbit(const ensemble::OrbitView<double>& view, const ensemble::OrbitSettings& settings,
                      ensemble::index_t system) const override {
        ensemble::refine_orbit<ModelView, Method>(model_, block_, view, settings, system);
    }

  private:
    std::shared_ptr<const codegen::HostModel> host_;
    ModelView model_;
    ensemble::Block<ModelView> block_;
};

template <class Method>
std::unique_ptr<StudyProgram> make_evaluator_for(std::shared_ptr<const codegen::HostModel> host,
                                                 const ensemble::StudySpec& spec) {
    if (SmallEvaluatorModel::fits(*host))
        return std::make_unique<EvaluatorStudyProgram<SmallEvaluatorModel, Method>>(std::move(host), spec);
    return std::make_unique<EvaluatorStudyProgram<LargeEvaluatorModel, Method>>(std::move(host), spec);
}

} // namespace bif::cpu::detail

namespace bif::cpu::detail {

// Defined in evaluator_<method>.cpp.
#define BIF_EVALUATOR_INSTANCE(tag)                                                                          \
    extern template std::unique_ptr<StudyProgram> make_evaluator_for<ensemble::methods::tag>(                \
        std::shared_ptr<const codegen::HostModel>, const ensemble::StudySpec&);
BIF_EVALUATOR_INSTANCE(Rk4)
BIF_EVALUATOR_INSTANCE(Rkck45)
BIF_EVALUATOR_INSTANCE(Dopri5)
BIF_EVALUATOR_INSTANCE(Rkc)
BIF_EVALUATOR_INSTANCE(Rosenbrock23)
BIF_EVALUATOR_INSTANCE(Rodas4)
BIF_EVALUATOR_INSTANCE(Iteration)
#undef BIF_EVALUATOR_INSTANCE

} // namespace bif::cpu::detail
