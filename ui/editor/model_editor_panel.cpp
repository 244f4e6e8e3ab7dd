#include "ui/editor/model_editor_panel.h"

#include "ui/editor/find_replace_bar.h"
#include "ui/editor/model_checker.h"
#include "ui/editor/model_editor.h"
#include "ui/editor/problems_panel.h"

#include <QShortcut>
#include <QSplitter>
#include <QVBoxLayout>

namespace bif::ui {

ModelEditorPanel::ModelEditorPanel(QWidget* parent)
    : QWidget(parent), editor_(new ModelEditor), findBar_(new FindReplaceBar(editor_)),
      problems_(new ProblemsPanel), checker_(new ModelChecker(this)),
      splitter_(new QSplitter(Qt::Vertical, this)) {
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(0);
    topLayout->addWidget(editor_, 1);
    topLayout->addWidget(findBar_);
    splitter_->addWidget(top);
    splitter_->addWidget(problems_);
    splitter_->setStretchFactor(0, 4);
    splitter_->setStretchFactor(1, 1);
    splitter_->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter_);

    auto* find = new QShortcut(QKeySequence::Find, this);
    auto* replace = new QShortcut(QKeySequence::Replace, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    replace->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, findBar_, &FindReplaceBar::showFind);
    connect(replace, &QShortcut::activated, findBar_, &FindReplaceBar::showReplace);

    connect(editor_, &QPlainTextEdit::textChanged, this, [this] { checker_->setText(text()); });
    connect(checker_, &ModelChecker::checked, this, &ModelEditorPanel::showCheck);
    connect(problems_, &ProblemsPanel::locationActivated, editor_, &ModelEditor::goTo);
}

void ModelEditorPanel::setText(const QString& text) {
    editor_->setPlainText(text);
    checker_->setText(text);
    checker_->checkNow();
}

QString ModelEditorPanel::text() const {
    return editor_->toPlainText();
}

void ModelEditorPanel::setFileName(const QString& name) {
    checker_->setFileName(name);
}

QTextDocument* ModelEditorPanel::document() const {
    return editor_->document();
}

void ModelEditorPanel::showCheck(std::shared_ptr<const model::Model> model,
                                 std::vector<model::Diagnostic> diagnostics) {
    editor_->setDiagnostics(diagnostics);
    problems_->setDiagnostics(diagnostics);
    model_ = model;
    diagnostics_ = diagnostics;
    emit modelChecked(std::move(model), std::move(diagnostics));
    if (problems_->errorCount() != errors_ || problems_->warningCount() != warnings_) {
        errors_ = problems_->errorCount();
        warnings_ = problems_->warningCount();
        emit problemCountChanged(errors_, warnings_);
    }
}

} // namespace bif::ui
