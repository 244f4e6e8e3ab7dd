#include "ui/study/formula_evaluator.h"

#include "engine/model/parse.h"
#include "ui/study/number_text.h"

#include <QObject>
#include <cmath>

namespace bif::ui {

void FormulaEvaluator::setModel(std::shared_ptr<const model::Model> model) {
    model_ = std::move(model);
    scratch_.reset();
    computeSlots();
}

void FormulaEvaluator::setParameters(const std::vector<std::pair<std::string, double>>& overrides) {
    overrides_ = overrides;
    computeSlots();
}

void FormulaEvaluator::computeSlots() {
    slots_.clear();
    initial_.clear();
    if (!model_) return;
    const model::Model& m = *model_;
    for (const auto& p : m.parameters)
        slots_.push_back(p.value);
    slots_.resize(m.num_param_slots(), 0.0);
    for (const auto& s : m.states)
        initial_.push_back(s.initial);
    for (const auto& [name, value] : overrides_)
        if (const int i = m.parameter_index(name); i >= 0) slots_[i] = value;
    // Derived parameters follow the others, in dependency order.
    for (const auto& d : m.derived)
        slots_[d.slot] = m.pool.evaluate(d.formula, initial_.data(), slots_.data(), 0.0);
}

FormulaEvaluator::Value FormulaEvaluator::evaluate(const QString& text) const {
    if (const auto number = plain_number(text)) return {number, {}};
    if (text.trimmed().isEmpty()) return {std::nullopt, QObject::tr("a number is needed")};
    if (!model_) return {std::nullopt, QObject::tr("not a number (formulas need a model)")};
    if (!scratch_ || scratch_->pool.size() > 100000) scratch_ = *model_;
    const model::ExpressionResult r = model::parse_expression(*scratch_, text.toStdString());
    if (!r.node) {
        const QString why =
            r.diagnostics.empty() ? QString() : QString::fromStdString(r.diagnostics[0].message);
        return {std::nullopt, QObject::tr("not a number or formula: %1").arg(why)};
    }
    if (scratch_->pool.depends_on_state_or_time(*r.node))
        return {std::nullopt, QObject::tr("may use parameters only, not the state or t")};
    const double value = scratch_->pool.evaluate(*r.node, initial_.data(), slots_.data(), 0.0);
    if (!std::isfinite(value)) return {std::nullopt, QObject::tr("evaluates to %1").arg(value)};
    return {value, {}};
}

} // namespace bif::ui
