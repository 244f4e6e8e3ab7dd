#include "ui/study/sweep_axis_editor.h"

#include "ui/study/formula_field.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QSpinBox>
#include <climits>

namespace bif::ui {

SweepAxisEditor::SweepAxisEditor(const QString& title, const FormulaEvaluator& evaluator, QWidget* parent)
    : QGroupBox(title, parent), target_(new QComboBox(this)), name_(new QComboBox(this)),
      from_(new FormulaField(evaluator, this)), to_(new FormulaField(evaluator, this)),
      count_(new QSpinBox(this)), scale_(new QComboBox(this)) {
    target_->addItem(tr("parameter"), int(study::SweepTarget::Parameter));
    target_->addItem(tr("initial value"), int(study::SweepTarget::InitialValue));
    // Editable: a study may name something the model lacks; the check says so at this field.
    name_->setEditable(true);
    name_->setInsertPolicy(QComboBox::NoInsert);
    name_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    name_->setMinimumContentsLength(6);
    count_->setRange(0, INT_MAX);
    scale_->addItem(tr("linear"), int(study::SweepScale::Linear));
    scale_->addItem(tr("log"), int(study::SweepScale::Log));

    auto* what = new QHBoxLayout;
    what->addWidget(target_);
    what->addWidget(name_, 1);
    auto* points = new QHBoxLayout;
    points->addWidget(count_, 1);
    points->addWidget(scale_);
    auto* form = new QFormLayout(this);
    form->addRow(tr("Sweep"), what);
    form->addRow(tr("From"), from_);
    form->addRow(tr("To"), to_);
    form->addRow(tr("Points"), points);

    connect(target_, &QComboBox::activated, this, [this] {
        fillNames();
        emit edited();
    });
    connect(name_, &QComboBox::activated, this, &SweepAxisEditor::edited);
    connect(name_->lineEdit(), &QLineEdit::textEdited, this, &SweepAxisEditor::edited);
    connect(from_, &FormulaField::edited, this, &SweepAxisEditor::edited);
    connect(to_, &FormulaField::edited, this, &SweepAxisEditor::edited);
    connect(count_, &QSpinBox::valueChanged, this, &SweepAxisEditor::edited);
    connect(scale_, &QComboBox::activated, this, &SweepAxisEditor::edited);
}

void SweepAxisEditor::setNames(const QStringList& parameters, const QStringList& states) {
    parameters_ = parameters;
    states_ = states;
    fillNames();
}

// The name combo lists what the target can sweep; the current name stays whatever it is.
void SweepAxisEditor::fillNames() {
    const QSignalBlocker block(name_);
    const QString current = name_->currentText();
    name_->clear();
    name_->addItems(target_->currentData().toInt() == int(study::SweepTarget::Parameter) ? parameters_
                                                                                         : states_);
    name_->setCurrentText(current);
}

void SweepAxisEditor::setAxis(const study::SweepAxis& axis) {
    const QSignalBlocker b1(target_), b2(count_), b3(scale_);
    target_->setCurrentIndex(target_->findData(int(axis.target)));
    fillNames();
    {
        const QSignalBlocker b4(name_);
        name_->setCurrentText(QString::fromStdString(axis.name));
    }
    from_->setValue(axis.from);
    to_->setValue(axis.to);
    count_->setValue(axis.count);
    scale_->setCurrentIndex(scale_->findData(int(axis.scale)));
}

study::SweepAxis SweepAxisEditor::axis() const {
    study::SweepAxis a;
    a.target = static_cast<study::SweepTarget>(target_->currentData().toInt());
    a.name = name_->currentText().trimmed().toStdString();
    a.from = from_->value();
    a.to = to_->value();
    a.count = count_->value();
    a.scale = static_cast<study::SweepScale>(scale_->currentData().toInt());
    return a;
}

void SweepAxisEditor::addPaths(FieldMarks& marks, const std::string& prefix) {
    marks.add(prefix, this);
    marks.add(prefix + ".parameter", name_);
    marks.add(prefix + ".initial", name_);
    marks.add(prefix + ".from", from_->lineEdit());
    marks.add(prefix + ".to", to_->lineEdit());
    marks.add(prefix + ".count", count_);
}

void SweepAxisEditor::refreshFormulas() {
    from_->refresh();
    to_->refresh();
}

QList<FormulaField*> SweepAxisEditor::formulaFields() const {
    return {from_, to_};
}

} // namespace bif::ui
