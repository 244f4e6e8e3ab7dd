#include "ui/study/section_editor.h"

#include "ui/study/formula_field.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QStackedWidget>

namespace bif::ui {

SectionEditor::SectionEditor(const FormulaEvaluator& evaluator, QWidget* parent)
    : QWidget(parent), kind_(new QComboBox(this)), pages_(new QStackedWidget(this)),
      period_(new QLineEdit(this)), condition_(new QLineEdit(this)), direction_(new QComboBox(this)),
      max_time_(new FormulaField(evaluator, this)) {
    kind_->addItem(tr("stroboscopic (every period)"), int(study::SectionKind::Stroboscopic));
    kind_->addItem(tr("event (a formula crosses zero)"), int(study::SectionKind::Event));
    direction_->addItem(tr("rising (- to +)"), int(study::CrossingDirection::Rising));
    direction_->addItem(tr("falling (+ to -)"), int(study::CrossingDirection::Falling));
    direction_->addItem(tr("both"), int(study::CrossingDirection::Both));
    period_->setPlaceholderText("2*pi/omega");
    period_->setToolTip(tr("The period, a formula of the parameters"));
    condition_->setPlaceholderText("y2");
    condition_->setToolTip(tr("The section is where this formula crosses zero"));
    max_time_->setToolTip(tr("A system with no crossing for this long stops; 0: no limit"));

    auto* strobe = new QWidget(pages_);
    auto* strobe_form = new QFormLayout(strobe);
    strobe_form->setContentsMargins(0, 0, 0, 0);
    strobe_form->addRow(tr("Period"), period_);
    auto* event = new QWidget(pages_);
    auto* event_form = new QFormLayout(event);
    event_form->setContentsMargins(0, 0, 0, 0);
    event_form->addRow(tr("Condition"), condition_);
    event_form->addRow(tr("Direction"), direction_);
    event_form->addRow(tr("Max time between"), max_time_);
    pages_->addWidget(strobe);
    pages_->addWidget(event);

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Section"), kind_);
    form->addRow(pages_);
    event->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);

    // Only the shown page takes room: the stroboscopic page is one row, the event page three.
    connect(kind_, &QComboBox::currentIndexChanged, this, [this](int index) {
        for (int i = 0; i < pages_->count(); ++i)
            pages_->widget(i)->setSizePolicy(QSizePolicy::Preferred,
                                             i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored);
        pages_->setCurrentIndex(index);
        // A stacked widget is as tall as its tallest page; cap it at the shown page's height.
        pages_->setMaximumHeight(pages_->currentWidget()->sizeHint().height());
        pages_->adjustSize();
    });
    pages_->setMaximumHeight(strobe->sizeHint().height());
    connect(kind_, &QComboBox::activated, this, &SectionEditor::edited);
    connect(period_, &QLineEdit::textEdited, this, &SectionEditor::edited);
    connect(condition_, &QLineEdit::textEdited, this, &SectionEditor::edited);
    connect(direction_, &QComboBox::activated, this, &SectionEditor::edited);
    connect(max_time_, &FormulaField::edited, this, &SectionEditor::edited);
}

void SectionEditor::setSection(const study::Section& s) {
    kind_->setCurrentIndex(kind_->findData(int(s.kind)));
    period_->setText(QString::fromStdString(s.period));
    condition_->setText(QString::fromStdString(s.condition));
    direction_->setCurrentIndex(direction_->findData(int(s.direction)));
    max_time_->setValue(s.max_time_between);
}

study::Section SectionEditor::section() const {
    study::Section s;
    s.kind = static_cast<study::SectionKind>(kind_->currentData().toInt());
    s.period = period_->text().trimmed().toStdString();
    s.condition = condition_->text().trimmed().toStdString();
    s.direction = static_cast<study::CrossingDirection>(direction_->currentData().toInt());
    s.max_time_between = max_time_->value();
    return s;
}

void SectionEditor::addPaths(FieldMarks& marks) {
    marks.add("analysis.section", kind_);
    marks.add("analysis.section.period", period_);
    marks.add("analysis.section.condition", condition_);
    marks.add("analysis.section.max_time_between", max_time_->lineEdit());
}

} // namespace bif::ui
