// One sweep axis: what is swept (a parameter or an initial value, by name), its range, the number
// of points and the spacing.
#pragma once

#include "engine/study/study.h"
#include "ui/study/field_marks.h"

#include <QGroupBox>
#include <QStringList>

class QComboBox;
class QSpinBox;

namespace bif::ui {

class FormulaEvaluator;
class FormulaField;

class SweepAxisEditor : public QGroupBox {
    Q_OBJECT
  public:
    SweepAxisEditor(const QString& title, const FormulaEvaluator& evaluator, QWidget* parent = nullptr);

    void setNames(const QStringList& parameters, const QStringList& states);
    void setAxis(const study::SweepAxis& axis);
    study::SweepAxis axis() const;
    // "sweep[i]...", the paths this editor's fields hold.
    void addPaths(FieldMarks& marks, const std::string& prefix);
    void refreshFormulas();
    QList<FormulaField*> formulaFields() const;

  signals:
    void edited();

  private:
    void fillNames();

    QStringList parameters_, states_;
    QComboBox* target_;
    QComboBox* name_;
    FormulaField* from_;
    FormulaField* to_;
    QSpinBox* count_;
    QComboBox* scale_;
};

} // namespace bif::ui
