// The model editor panel: the `.ode` editor with its find bar above a list of the model's problems.
// It checks the text as it changes (ModelChecker) and shows the result in both places.
#pragma once

#include "ui/editor/model_metatypes.h"

#include <QWidget>

class QSplitter;
class QTextDocument;

namespace bif::ui {

class FindReplaceBar;
class ModelChecker;
class ModelEditor;
class ProblemsPanel;

class ModelEditorPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ModelEditorPanel(QWidget* parent = nullptr);

    // Replaces the text (a file opened: the undo history starts afresh) and checks it at once.
    void setText(const QString& text);
    QString text() const;
    // The name diagnostics carry as their file.
    void setFileName(const QString& name);

    QTextDocument* document() const;
    ModelEditor* editor() const { return editor_; }
    FindReplaceBar* findBar() const { return findBar_; }
    ProblemsPanel* problems() const { return problems_; }
    ModelChecker* checker() const { return checker_; }
    QSplitter* splitter() const { return splitter_; }

    // The newest check's result: the model (null with errors or before the first check) and diagnostics.
    std::shared_ptr<const model::Model> model() const { return model_; }
    const std::vector<model::Diagnostic>& diagnostics() const { return diagnostics_; }

  signals:
    void modelChecked(std::shared_ptr<const bif::model::Model> model,
                      std::vector<bif::model::Diagnostic> diagnostics);
    void problemCountChanged(int errors, int warnings);

  private:
    void showCheck(std::shared_ptr<const model::Model> model, std::vector<model::Diagnostic> diagnostics);

    ModelEditor* editor_;
    FindReplaceBar* findBar_;
    ProblemsPanel* problems_;
    ModelChecker* checker_;
    QSplitter* splitter_;
    std::shared_ptr<const model::Model> model_;
    std::vector<model::Diagnostic> diagnostics_;
    int errors_ = -1; // -1: no count announced yet
    int warnings_ = -1;
};

} // namespace bif::ui
