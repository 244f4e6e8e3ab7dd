// A number field that also takes a formula of the model's parameters; the value a formula gives is
// shown as a hint beside it. The text is kept as typed; the study gets the value.
#pragma once

#include "ui/study/formula_evaluator.h"

#include <QWidget>
#include <optional>

class QLabel;
class QLineEdit;

namespace bif::ui {

class FormulaField : public QWidget {
    Q_OBJECT
  public:
    FormulaField(const FormulaEvaluator& evaluator, QWidget* parent = nullptr);

    void setValue(double value); // writes the number itself
    void setText(const QString& text);
    QString text() const;
    // The value of the text, or the last good value while the text has none.
    double value() const { return value_; }
    // Why the text has no value; empty when it has one.
    QString error() const { return error_; }
    QLineEdit* lineEdit() const { return edit_; }

    // Evaluates again (the parameter values or the model changed).
    void refresh();

  signals:
    void edited();

  private:
    const FormulaEvaluator& evaluator_;
    QLineEdit* edit_;
    QLabel* hint_;
    double value_ = 0.0;
    QString error_;
};

} // namespace bif::ui
