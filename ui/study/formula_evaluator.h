// Values of the numbers the user types into the study panel: a plain number, or a formula of the
// model's parameters ("2*pi/omega", "0.5*k0") evaluated with the parameter values the study sets.
#pragma once

#include "engine/model/model.h"

#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bif::ui {

class FormulaEvaluator {
  public:
    struct Value {
        std::optional<double> value;
        QString error; // why there is no value
    };

    void setModel(std::shared_ptr<const model::Model> model);
    // The study's overrides of the model's parameter values, by name.
    void setParameters(const std::vector<std::pair<std::string, double>>& overrides);

    Value evaluate(const QString& text) const;

  private:
    void computeSlots();

    std::shared_ptr<const model::Model> model_;
    // Formulas are parsed into a copy, so that the shared model stays immutable.
    mutable std::optional<model::Model> scratch_;
    std::vector<std::pair<std::string, double>> overrides_;
    std::vector<double> slots_; // all P + D parameter slots
    std::vector<double> initial_;
};

} // namespace bif::ui
