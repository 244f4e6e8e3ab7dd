// A Poincaré section: stroboscopic (every period, a formula of the parameters) or an event (where
// a formula crosses zero, in a direction, with a longest time between crossings).
#pragma once

#include "engine/study/study.h"
#include "ui/study/field_marks.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QStackedWidget;

namespace bif::ui {

class FormulaEvaluator;
class FormulaField;

class SectionEditor : public QWidget {
    Q_OBJECT
  public:
    SectionEditor(const FormulaEvaluator& evaluator, QWidget* parent = nullptr);

    void setSection(const study::Section& section);
    study::Section section() const;
    void addPaths(FieldMarks& marks);
    FormulaField* maxTimeField() const { return max_time_; }
    QLineEdit* periodEdit() const { return period_; }

  signals:
    void edited();

  private:
    QComboBox* kind_;
    QStackedWidget* pages_;
    QLineEdit* period_;
    QLineEdit* condition_;
    QComboBox* direction_;
    FormulaField* max_time_;
};

} // namespace bif::ui
