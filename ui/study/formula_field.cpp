#include "ui/study/formula_field.h"

#include "ui/study/number_text.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

namespace bif::ui {

FormulaField::FormulaField(const FormulaEvaluator& evaluator, QWidget* parent)
    : QWidget(parent), evaluator_(evaluator), edit_(new QLineEdit(this)), hint_(new QLabel(this)) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(edit_, 1);
    layout->addWidget(hint_);
    hint_->setStyleSheet("color: palette(mid);");
    hint_->hide();
    edit_->setToolTip(tr("A number, or a formula of the model's parameters such as 2*pi/omega"));
    connect(edit_, &QLineEdit::textEdited, this, [this] {
        refresh();
        emit edited();
    });
}

void FormulaField::setValue(double value) {
    setText(number_text(value));
}

void FormulaField::setText(const QString& text) {
    edit_->setText(text);
    refresh();
}

QString FormulaField::text() const {
    return edit_->text();
}

void FormulaField::refresh() {
    const FormulaEvaluator::Value v = evaluator_.evaluate(edit_->text());
    error_ = v.error;
    if (v.value) value_ = *v.value;
    // The hint only when the text is a formula: a plain number shows its value already.
    const bool formula = v.value && !plain_number(edit_->text());
    hint_->setText(formula ? "= " + QString::number(*v.value, 'g', 6) : QString());
    hint_->setVisible(formula);
}

} // namespace bif::ui
